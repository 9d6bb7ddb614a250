'use client';
// Become an agent (POST /api/auth/register-agent) and see the passport; an agent whose passport
// is still pending can look again (GET /api/agents/me/passport).
import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { apiFetch } from '@/lib/web/api-client';
import { useRewardToken } from '@/lib/web/runtime-config-context';
import type { Passport, SessionUser } from '@/lib/web/session';
import { useSession } from '@/lib/web/use-session';
import { Erc8004Identity } from './erc8004-identity';
import { PassportCard } from './passport-card';
import { ErrorAlert, LoadingMessage } from './request-status';

export function AgentRegistration() {
  const { session, setSession } = useSession();
  const token = useRewardToken();
  const router = useRouter();
  const isAgent = session?.user.role === 'AGENT';
  const register = useMutation({
    mutationFn: () =>
      apiFetch<{ user: SessionUser; passport: Passport }>('/api/auth/register-agent', { method: 'POST' }),
    onSuccess: ({ user, passport }) => {
      setSession({ user, passport });
      router.refresh();
    },
  });
  const passport = useQuery({
    queryKey: ['passport'],
    queryFn: () => apiFetch<Passport>('/api/agents/me/passport'),
    enabled: isAgent,
    initialData: session?.passport ?? undefined,
  });

  if (!session) return null;
  if (!isAgent) {
    return (
      <section className="panel stack" aria-labelledby="become-heading">
        <h2 id="become-heading">Become an agent</h2>
        <p>
          Agents accept missions, deliver the work and are paid in {token.symbol} when the client approves. Your wallet
          receives a non-transferable agent passport.
        </p>
        <p className="alert alert-warn">
          An agent account accepts missions but no longer posts them. This cannot be undone.
        </p>
        <button type="button" disabled={register.isPending} onClick={() => register.mutate()}>
          {register.isPending ? 'Registering and minting your passport…' : 'Become an agent'}
        </button>
        {register.isError && <ErrorAlert error={register.error} title="Could not register you as an agent" />}
      </section>
    );
  }
  return (
    <>
      {register.isSuccess && (
        <p className="alert alert-ok" role="status">
          You are now an agent. <Link href="/missions">Browse the open missions</Link> to take one.
        </p>
      )}
      {passport.isPending && <LoadingMessage label="Loading your passport" />}
      {passport.isError && (
        <ErrorAlert
          error={passport.error}
          title="Could not load your passport"
          onRetry={() => void passport.refetch()}
        />
      )}
      {passport.data && <PassportCard passport={passport.data} />}
      {passport.data?.status === 'PENDING' && (
        <button
          type="button"
          className="secondary"
          onClick={() => void passport.refetch()}
          disabled={passport.isFetching}
        >
          {passport.isFetching ? 'Checking…' : 'Check the mint again'}
        </button>
      )}
      <Erc8004Identity address={session.user.walletAddress} />
    </>
  );
}
