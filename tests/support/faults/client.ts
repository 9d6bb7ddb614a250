// A client of the running instances over real HTTP, as an SDK user would be: JSON requests, real
// wallets, real SIWE messages for SIWE_DOMAIN, and the check that every error has the documented shape.
import { expect } from 'vitest';
import type { Hex, PrivateKeyAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { CHAIN_ID, CRON_SECRET, SIWE_DOMAIN, type Instance } from './instances';

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

export const newAccount = (): PrivateKeyAccount => privateKeyToAccount(generatePrivateKey());

export async function request(
  instance: Instance,
  path: string,
  options: { body?: unknown; token?: string; method?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${instance.url}${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Left as text: expectDocumentedShape reports it.
  }
  return { status: response.status, body, headers: response.headers };
}

/** docs/api.md#errors: every error is `{ error: string, details?: string[] }` — and a 503 also says when to retry. */
export function expectDocumentedShape(reply: Reply): void {
  if (reply.status < 400) return;
  expect(reply.body).toEqual(
    reply.body?.details === undefined
      ? { error: expect.any(String) }
      : { error: expect.any(String), details: expect.arrayContaining([expect.any(String)]) },
  );
  if (reply.status === 503) expect(reply.headers.get('retry-after')).toMatch(/^\d+$/);
}

export function siweMessage(account: PrivateKeyAccount, nonce: string): string {
  return createSiweMessage({
    domain: SIWE_DOMAIN,
    address: account.address,
    statement: 'Sign in to taskmarket with your wallet.',
    uri: `http://${SIWE_DOMAIN}`,
    version: '1',
    chainId: CHAIN_ID,
    nonce,
    issuedAt: new Date(),
  });
}

export async function requestNonce(instance: Instance, address: Hex): Promise<Reply> {
  return request(instance, '/api/auth/nonce', { body: { address } });
}

/** A signed message over a nonce issued by `issuer`, ready to be verified anywhere. */
export async function signedMessage(issuer: Instance, account: PrivateKeyAccount = newAccount()) {
  const nonce = await requestNonce(issuer, account.address);
  if (nonce.status !== 200) throw new Error(`nonce: ${nonce.status} ${JSON.stringify(nonce.body)}`);
  const message = siweMessage(account, nonce.body.nonce);
  return { account, message, signature: await account.signMessage({ message }) };
}

export async function verify(instance: Instance, signed: { message: string; signature: Hex }): Promise<Reply> {
  return request(instance, '/api/auth/verify', { body: { message: signed.message, signature: signed.signature } });
}

/** Nonce from `issuer`, verify at `verifier`; throws unless both succeed. */
export async function signIn(issuer: Instance, verifier: Instance = issuer, account: PrivateKeyAccount = newAccount()) {
  const reply = await verify(verifier, await signedMessage(issuer, account));
  if (reply.status !== 200) throw new Error(`verify: ${reply.status} ${JSON.stringify(reply.body)}`);
  return {
    account,
    token: reply.body.token as string,
    user: reply.body.user as { id: string; walletAddress: string; role: string },
  };
}

export function sweep(instance: Instance): Promise<Reply> {
  return request(instance, '/api/cron/sweep', { method: 'POST', headers: { authorization: `Bearer ${CRON_SECRET}` } });
}
