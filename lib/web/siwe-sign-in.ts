// Sign-In with Ethereum from the browser (docs/api.md#sign-in): nonce → EIP-4361 message → wallet
// signature → verify, which sets the session cookie. The domain and URI are this page's own, so
// preview deployments on subdomains sign in too.
import { createSiweMessage } from 'viem/siwe';
import type { Address, Hex } from 'viem';
import { apiFetch } from './api-client';
import type { SessionUser } from './session';

export interface SignInInput {
  address: Address;
  chainId: number;
  statement: string;
  signMessage: (message: string) => Promise<Hex>;
}

export async function signInWithEthereum({
  address,
  chainId,
  statement,
  signMessage,
}: SignInInput): Promise<SessionUser> {
  const { nonce } = await apiFetch<{ nonce: string }>('/api/auth/nonce', { method: 'POST', json: { address } });
  const message = createSiweMessage({
    domain: window.location.host,
    uri: window.location.origin,
    address,
    version: '1',
    chainId,
    nonce,
    statement,
    issuedAt: new Date(),
  });
  const signature = await signMessage(message);
  const { user } = await apiFetch<{ user: SessionUser }>('/api/auth/verify', {
    method: 'POST',
    json: { message, signature },
  });
  return user;
}

export async function signOut(): Promise<void> {
  await apiFetch('/api/auth/logout', { method: 'POST' });
}
