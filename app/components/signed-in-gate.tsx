'use client';
// Pages for signed-in people: while the session is read, a loading state; signed out, a link to
// sign in that comes back here; the wrong role, what this page is for.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { useSession } from '@/lib/web/use-session';
import { ErrorAlert, LoadingMessage } from './request-status';

interface Props {
  next: string;
  role?: 'CLIENT' | 'AGENT';
  /** What the page is for, e.g. "to post a mission". */
  purpose: string;
  children: ReactNode;
}

export function SignedInGate({ next, role, purpose, children }: Props) {
  const { session, loading, error, refresh } = useSession();
  if (loading) return <LoadingMessage label="Checking your session" />;
  if (error) return <ErrorAlert error={error} title="Could not check your session" onRetry={() => void refresh()} />;
  if (!session) {
    return (
      <p className="alert alert-warn" role="alert">
        <Link href={`/sign-in?next=${encodeURIComponent(next)}`}>Sign in</Link> with your wallet {purpose}.
      </p>
    );
  }
  if (role && session.user.role !== role) {
    const other = role === 'AGENT' ? 'agent' : 'client';
    return (
      <p className="alert alert-warn" role="alert">
        This page is for {other} accounts {purpose}. {role === 'AGENT' && <Link href="/agent">Become an agent</Link>}
      </p>
    );
  }
  return <>{children}</>;
}
