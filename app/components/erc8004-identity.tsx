'use client';
// The agent's ERC-8004 identity (docs/api.md#erc-8004-identity): the one linked and what our operator
// wrote to it, or a way to get one — link an id the wallet holds, or register one from the browser
// wallet (one transaction whose agentURI is the agent's registration file) and link it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { AgentProfile } from '@/lib/agents/schemas';
import { ApiRequestError, apiFetch } from '@/lib/web/api-client';
import { registerIdentity, registrationUrl } from '@/lib/web/erc8004';
import { useRuntimeConfig } from '@/lib/web/runtime-config-context';
import { useWallet } from '@/lib/web/use-wallet';
import { classifyWalletError } from '@/lib/web/wallet-errors';
import { NetworkNotice } from './network-notice';
import { ErrorAlert, LoadingMessage } from './request-status';
import { WalletConnect } from './wallet-connect';

const link = (agentId: string) =>
  apiFetch<{ agentId: string; agentRegistry: string }>('/api/agents/me/erc8004', { method: 'POST', json: { agentId } });

export function Erc8004Identity({ address }: { address: string }) {
  const { contracts } = useRuntimeConfig();
  const wallet = useWallet();
  const queryClient = useQueryClient();
  const key = ['agent-profile', address];
  const profile = useQuery({ queryKey: key, queryFn: () => apiFetch<AgentProfile>(`/api/agents/${address}`) });
  const [agentId, setAgentId] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const linkOne = useMutation({ mutationFn: link, onSuccess: refresh });
  const unlink = useMutation({
    mutationFn: () => apiFetch('/api/agents/me/erc8004', { method: 'DELETE' }),
    onSuccess: refresh,
  });
  const register = useMutation({
    mutationFn: async () => {
      const client = await wallet.walletClient();
      const { agentId: id } = await registerIdentity(
        client,
        contracts.identityRegistry as `0x${string}`,
        registrationUrl(window.location.origin, address),
      );
      return link(id.toString());
    },
    onSuccess: refresh,
  });

  if (!contracts.identityRegistry) return null;
  const identity = profile.data?.erc8004;
  const ownWallet = wallet.address?.toLowerCase() === address.toLowerCase();
  return (
    <section className="panel stack" aria-labelledby="erc8004-heading" data-testid="erc8004-identity">
      <h2 id="erc8004-heading">ERC-8004 identity</h2>
      <p className="hint">
        Link an ERC-8004 identity and our escrow operator writes feedback to it on-chain at each of your settlements —
        reputation other marketplaces can read.
      </p>
      {profile.isPending && <LoadingMessage label="Loading your identity" />}
      {profile.isError && (
        <ErrorAlert error={profile.error} title="Could not load your profile" onRetry={() => void profile.refetch()} />
      )}
      {identity && (
        <>
          <dl className="grid">
            <div>
              <dt>Agent id</dt>
              <dd>#{identity.agentId}</dd>
            </div>
            <div>
              <dt>Settlement feedback</dt>
              <dd>
                {identity.feedbackCount === null
                  ? 'Cannot be read from the chain just now'
                  : identity.feedbackCount === 0
                    ? 'None yet'
                    : `${identity.averageValue} of 100 over ${identity.feedbackCount}`}
                {identity.stale && identity.feedbackCount !== null ? ' (last read)' : ''}
              </dd>
            </div>
          </dl>
          <button type="button" className="secondary" disabled={unlink.isPending} onClick={() => unlink.mutate()}>
            {unlink.isPending ? 'Unlinking…' : 'Unlink this identity'}
          </button>
          {unlink.isError && <ErrorAlert error={unlink.error} title="Could not unlink" />}
        </>
      )}
      {profile.data && !identity && (
        <>
          <form
            className="row"
            onSubmit={(event: FormEvent) => {
              event.preventDefault();
              linkOne.mutate(agentId.trim());
            }}
          >
            <label>
              Agent id you own (or are the agentWallet of)
              <input
                inputMode="numeric"
                pattern="[0-9]+"
                required
                value={agentId}
                onChange={(e) => setAgentId(e.target.value)}
              />
            </label>
            <button type="submit" disabled={linkOne.isPending}>
              {linkOne.isPending ? 'Checking on-chain…' : 'Link'}
            </button>
          </form>
          {linkOne.isError && <ErrorAlert error={linkOne.error} title="Could not link that identity" />}
          <p>Or register a new one from this wallet (one transaction; you pay its gas):</p>
          <WalletConnect />
          <NetworkNotice />
          {wallet.isConnected && !ownWallet && (
            <p className="alert alert-warn">Connect the wallet you signed in with, {address}.</p>
          )}
          <button
            type="button"
            disabled={register.isPending || !wallet.isConnected || wallet.wrongNetwork || !ownWallet}
            onClick={() => register.mutate()}
          >
            {register.isPending ? 'Registering and linking…' : 'Register an identity'}
          </button>
          {register.isError &&
            (register.error instanceof ApiRequestError ? (
              <ErrorAlert error={register.error} title="Registered, but the link failed: link the new id above" />
            ) : (
              <p className="alert alert-error" role="alert">
                {classifyWalletError(register.error).message}
              </p>
            ))}
        </>
      )}
    </section>
  );
}
