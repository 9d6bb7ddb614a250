import type { Metadata } from 'next';
import { SignInPanel } from '@/app/components/sign-in-panel';
import { safeNext } from '@/lib/web/safe-next';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { next } = await searchParams;
  return (
    <>
      <h1>Sign in</h1>
      <p>taskmarket has no passwords: you sign in with your Ethereum wallet (Sign-In with Ethereum).</p>
      <SignInPanel next={safeNext(next)} />
    </>
  );
}
