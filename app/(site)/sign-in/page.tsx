import type { Metadata } from 'next';
import { SignInPanel } from '@/app/components/sign-in-panel';

export const metadata: Metadata = { title: 'Sign in' };

/** Only paths of this site are followed after sign-in (no open redirect). */
function safeNext(value: string | string[] | undefined): string {
  const next = Array.isArray(value) ? value[0] : value;
  return next && /^\/(?![\\/])/.test(next) && !next.startsWith('/sign-in') ? next : '/missions';
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { next } = await searchParams;
  return (
    <>
      <h1>Sign in</h1>
      <p>taskmarket has no passwords: you sign in with your Ethereum wallet (Sign-In with Ethereum).</p>
      <SignInPanel next={safeNext(next)} />
    </>
  );
}
