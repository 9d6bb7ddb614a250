// docs/api.md#oauth-21: registration is anonymous, so besides the per-source limit (IPv6 by /48) a global
// ceiling bounds how many unused clients all sources together can register in an hour — the table's
// growth has a bound — and a registration used in an authorization stops counting.
import { count, isNull } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { POST as registerRoute } from '@/app/api/oauth/register/route';
import { getDb } from '@/lib/db/client';
import { oauthClients } from '@/lib/db/schema';
import { call, randomIp } from '../support/http';
import { BOOKKEEPING, setEnv, useTestEnvironment } from '../support/environment';
import { isolatedDatabase } from '../support/isolated-database';
import { approve, authorizeParams, exchange, pkce, REDIRECT_URI } from '../support/oauth';
import { signIn } from '../support/wallets';

// The ceiling counts every unused registration in the database: on PostgreSQL this file has one of its own,
// so the registrations other files make at the same time are not counted here.
useTestEnvironment({
  ...isolatedDatabase(),
  ...BOOKKEEPING,
  OAUTH_REGISTRATIONS_PER_HOUR: '20',
  OAUTH_REGISTRATIONS_GLOBAL_PER_HOUR: '3',
});

const clientCount = async () => (await (await getDb()).select({ n: count() }).from(oauthClients))[0]!.n;
const unusedCount = async () =>
  (await (await getDb()).select({ n: count() }).from(oauthClients).where(isNull(oauthClients.authorizedAt)))[0]!.n;
const created: string[] = [];
const register = async (ip: string) => {
  const answer = await call(registerRoute, { body, ip });
  if (answer.status === 201) created.push(answer.body.client_id);
  return answer;
};

/** A person connects the client: consent, then the code redeemed — an authorization that used it. */
async function connectWith(clientId: string) {
  const { verifier, challenge } = pkce();
  const location = await approve(await signIn(), authorizeParams(clientId, challenge, { scope: 'missions:read' }));
  const tokens = await exchange({
    grant_type: 'authorization_code',
    code: location.searchParams.get('code')!,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
  });
  expect(tokens.status).toBe(200);
}

/** `n` addresses inside one IPv6 /48, each in a /64 of its own. */
const site = () =>
  `2a01:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
const addressesIn = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}:${(i + 1).toString(16)}::7`);
const body = { client_name: 'sybil', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' };

test('behavior: past the global ceiling a fresh IP is refused too, and refused metadata never spent it', async () => {
  // A refused registration is not a registration: it leaves the global budget as it was.
  const junk = await call(registerRoute, { body: { ...body, redirect_uris: ['javascript:alert(1)'] }, ip: randomIp() });
  expect(junk).toMatchObject({ status: 400, body: { error: 'invalid_redirect_uri' } });
  for (let i = 0; i < 3; i += 1) expect((await register(randomIp())).status).toBe(201);
  const before = await clientCount();
  const refused = await call(registerRoute, { body, ip: randomIp() });
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(await clientCount()).toBe(before);
});

test('behavior: a registration used in an authorization no longer counts against the ceiling', async () => {
  expect((await register(randomIp())).status).toBe(429);
  // Two of the three unused ones are connected by their people: two places free up, no more.
  for (const clientId of created.slice(0, 2)) await connectWith(clientId);
  expect((await register(randomIp())).status).toBe(201);
  expect((await register(randomIp())).status).toBe(201);
  expect((await register(randomIp())).status).toBe(429);
});

test('behavior: a flood from one IPv6 /48 meets its own limit; a client from elsewhere still connects', async () => {
  // Room for five more unused registrations in all; a source may make three an hour.
  setEnv({ OAUTH_REGISTRATIONS_PER_HOUR: '3', OAUTH_REGISTRATIONS_GLOBAL_PER_HOUR: String((await unusedCount()) + 5) });
  try {
    const flood = [];
    for (const ip of addressesIn(site(), 12)) flood.push((await register(ip)).status);
    expect(flood).toEqual([201, 201, 201, ...Array(9).fill(429)]);
    const honest = await register(`${site()}:1::1`);
    expect(honest.status).toBe(201);
    await connectWith(honest.body.client_id);
  } finally {
    setEnv({ OAUTH_REGISTRATIONS_PER_HOUR: '20', OAUTH_REGISTRATIONS_GLOBAL_PER_HOUR: '3' });
  }
});
