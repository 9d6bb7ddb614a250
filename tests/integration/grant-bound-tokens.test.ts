// A token never outlives what it was derived from (docs/api.md#grant-bound-tokens): register-agent
// with a delegated token answers one that expires no later than the caller's own credential, and
// every token tied to a grant is refused once the grant is revoked or expired in the database — on
// another instance within a second, and with the KV flushed.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, test, vi } from 'vitest';
import { POST as logout } from '@/app/api/auth/logout/route';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
import { GET as me } from '@/app/api/auth/me/route';
import { GET as grantsList } from '@/app/api/grants/route';
import { DELETE as revokeGrant } from '@/app/api/grants/[id]/route';
import { DELETE as deleteToken } from '@/app/api/tokens/[id]/route';
import { POST as createToken } from '@/app/api/tokens/route';
import { getDb } from '@/lib/db/client';
import { grants } from '@/lib/db/schema';
import { STANDING_TTL_MS } from '@/lib/oauth/grant-standing';
import { call } from '../support/http';
import { BOOKKEEPING, setEnv, useTestEnvironment } from '../support/environment';
import { connect, type User } from '../support/oauth';
import { signIn } from '../support/wallets';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

const expOf = (token: string): number => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).exp;
// Tokens count whole seconds: past one, a token issued now would expire later than one issued before.
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1_100));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// The KV as a flush or a restart leaves it: empty. A fresh key prefix is exactly that for the app,
// on the memory KV and on Redis alike, without touching another suite's keys.
const flushKv = () => setEnv({ KV_PREFIX: `test:${randomUUID()}:` });

async function oauthGrantOf(user: User): Promise<string> {
  const listed = await call(grantsList, { token: user.token });
  expect(listed.status).toBe(200);
  return listed.body.items[0].id as string;
}

async function shortPersonalToken(user: User, scopes: string[]) {
  const answer = await call(createToken, {
    method: 'POST',
    token: user.token,
    body: { name: 'short', scopes, expiresIn: 3600 },
  });
  expect(answer.status).toBe(201);
  return answer.body as { token: string; grant: { id: string; expiresAt: string } };
}

describe('register-agent with a delegated token', () => {
  test(
    'behavior: with an OAuth access token, the answered token never expires after it, ' + 'called again and again',
    async () => {
      const { tokens } = await connect('missions:read missions:work');
      const callerExp = expOf(tokens.access_token);
      await nextSecond();
      const first = await call(registerAgent, { method: 'POST', token: tokens.access_token });
      expect(first.status).toBe(200);
      expect(expOf(first.body.token)).toBeLessThanOrEqual(callerExp);
      await nextSecond();
      const second = await call(registerAgent, { method: 'POST', token: first.body.token });
      expect(second.status).toBe(200);
      expect(expOf(second.body.token)).toBeLessThanOrEqual(callerExp);
    },
  );

  test('behavior: with a personal token, the answered token expires no later than the personal token', async () => {
    const user = await signIn();
    const { token, grant } = await shortPersonalToken(user, ['missions:work']);
    await nextSecond();
    const promoted = await call(registerAgent, { method: 'POST', token });
    expect(promoted.status).toBe(200);
    expect(expOf(promoted.body.token) * 1000).toBeLessThanOrEqual(Date.parse(grant.expiresAt));
  });

  test('error: a token derived from a personal token is refused once the personal token expired', async () => {
    const user = await signIn();
    const { token, grant } = await shortPersonalToken(user, ['missions:work']);
    const derived = (await call(registerAgent, { method: 'POST', token })).body.token as string;
    // The personal token's hour has passed.
    await (await getDb())
      .update(grants)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(grants.id, grant.id));
    expect((await call(me, { token })).status).toBe(401);
    expect((await call(me, { token: derived })).status).toBe(401);
  });
});

describe('a revoked grant stays revoked without the KV', () => {
  test('error: an OAuth access token of a revoked grant is refused after the KV is flushed', async () => {
    const { user, tokens } = await connect('missions:read');
    expect((await call(me, { token: tokens.access_token })).status).toBe(200);
    const revoked = await call(revokeGrant, {
      method: 'DELETE',
      token: user.token,
      params: { id: await oauthGrantOf(user) },
    });
    expect(revoked.status).toBe(200);
    expect((await call(me, { token: tokens.access_token })).status).toBe(401);
    flushKv();
    expect((await call(me, { token: tokens.access_token })).status).toBe(401);
  });

  test('error: a logged-out OAuth access token is refused after the KV is flushed; its grant ended', async () => {
    const { user, tokens } = await connect('missions:read');
    expect((await call(logout, { method: 'POST', token: tokens.access_token })).status).toBe(200);
    expect((await call(me, { token: tokens.access_token })).status).toBe(401);
    flushKv();
    expect((await call(me, { token: tokens.access_token })).status).toBe(401);
    // Ended as a disconnect ends it: Connected apps no longer lists it.
    expect((await call(grantsList, { token: user.token })).body.items).toEqual([]);
  });

  test('error: a token derived from a revoked personal token is refused after the KV is flushed', async () => {
    const user = await signIn();
    const { token, grant } = await shortPersonalToken(user, ['missions:work']);
    const derived = (await call(registerAgent, { method: 'POST', token })).body.token as string;
    expect((await call(me, { token: derived })).status).toBe(200);
    expect((await call(deleteToken, { method: 'DELETE', token: user.token, params: { id: grant.id } })).status).toBe(
      200,
    );
    flushKv();
    expect((await call(me, { token })).status).toBe(401);
    expect((await call(me, { token: derived })).status).toBe(401);
  });

  test(
    'behavior: another instance refuses a revoked grant at once while the KV holds the ' +
      'mark, and within a second without it',
    async () => {
      const { user, tokens } = await connect('missions:read');
      // A second instance: the same database and KV (held on globalThis), its own module state — the
      // verified-token cache and its own reads of grants.
      vi.resetModules();
      const other = (await import('@/app/api/auth/me/route')).GET;
      // Its configuration is its own too: it sees the flushed KV's new prefix only once reset.
      const otherConfig = await import('@/lib/config');
      expect((await call(other, { token: tokens.access_token })).status).toBe(200);
      expect(
        (await call(revokeGrant, { method: 'DELETE', token: user.token, params: { id: await oauthGrantOf(user) } }))
          .status,
      ).toBe(200);
      expect((await call(other, { token: tokens.access_token })).status).toBe(401);
      flushKv();
      otherConfig.resetConfig();
      // Its read of the grant, from before the revocation, lasts at most STANDING_TTL_MS.
      await sleep(STANDING_TTL_MS + 50);
      expect((await call(other, { token: tokens.access_token })).status).toBe(401);
    },
  );
});
