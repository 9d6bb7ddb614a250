// Dependencies that are down answer 503 with Retry-After in the documented shape — never a 500,
// never a silent fallback — and the service recovers by itself when they return.
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { describe, expect, test } from 'vitest';
import { GET as listMissions } from '@/app/api/missions/route';
import { POST as nonce } from '@/app/api/auth/nonce/route';
import { POST as verify } from '@/app/api/auth/verify/route';
import { GET as me } from '@/app/api/auth/me/route';
import { GET as health } from '@/app/api/health/route';
import { GET as unknownGet, POST as unknownPost } from '@/app/api/[...path]/route';
import { call } from '../support/http';
import { db } from '../support/missions';
import { setEnv, useTestEnvironment } from '../support/environment';
import { newWallet, requestNonce, signIn, siweMessage } from '../support/wallets';

useTestEnvironment();

const DEAD_REDIS = 'redis://127.0.0.1:1';
const DEAD_POSTGRES = 'postgres://postgres@127.0.0.1:1/test';

function expect503(response: { status: number; body: any; headers: Headers }) {
  expect(response.status).toBe(503);
  expect(response.body).toEqual({ error: 'Service temporarily unavailable', details: [expect.any(String)] });
  expect(response.headers.get('retry-after')).toBe('5');
}

describe('dependency outages', () => {
  test('behavior: an unreachable KV gives 503 on nonce and verify, then recovers', async () => {
    // Whichever shared KV this run uses (TEST_KV=vercel: the REST one) is pointed at nothing.
    const setting = process.env.KV_REST_API_URL ? 'KV_REST_API_URL' : 'REDIS_URL';
    const previous = process.env[setting];
    setEnv({ [setting]: setting === 'REDIS_URL' ? DEAD_REDIS : 'http://127.0.0.1:9' });
    const wallet = newWallet();
    expect503(await call(nonce, { body: { address: wallet.address } }));
    const message = siweMessage(wallet, 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6');
    expect503(await call(verify, { body: { message, signature: await wallet.signMessage({ message }) } }));
    const report = await call(health);
    expect(report.status).toBe(503);
    expect(report.body).toMatchObject({ status: 'unavailable', kv: 'down', db: 'ok' });
    setEnv({ [setting]: previous });
    expect((await call(nonce, { body: { address: wallet.address } })).status).toBe(200);
    expect((await call(health)).body).toMatchObject({ status: 'ok', kv: 'ok', db: 'ok', chain: 'ok' });
  });

  test('behavior: an unreachable database gives 503 on verify and authenticated reads, then recovers', async () => {
    const { token } = await signIn();
    const previous = process.env.DATABASE_URL;
    setEnv({ DATABASE_URL: DEAD_POSTGRES });
    const wallet = newWallet();
    const message = siweMessage(wallet, await requestNonce(wallet.address));
    expect503(await call(verify, { body: { message, signature: await wallet.signMessage({ message }) } }));
    expect503(await call(me, { token }));
    expect((await call(health)).body).toMatchObject({ db: 'down' });
    setEnv({ DATABASE_URL: previous });
    expect((await call(me, { token })).status).toBe(200);
  });
});

// lib/db/client.ts: PostgreSQL cancels a statement of the app's connections after 5 s (a
// `statement_timeout` in DATABASE_URL replaces that; these tests use one of a few hundred ms), and
// the request answers 503; the migrations at start-up run without it. PGlite, the embedded
// default, has no statement timeout (it runs in-process), so these run where TEST_DATABASE_URL is
// set, as in CI's PostgreSQL runs.
describe.skipIf(!process.env.TEST_DATABASE_URL)('statement timeout (PostgreSQL; skipped on PGlite, which has none)', () => {
  const withTimeout = (ms: number) => {
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set('statement_timeout', String(ms));
    return url.toString();
  };
  const timeout = async () => {
    const result = await (await db()).execute(sql`show statement_timeout`);
    return (result as unknown as { statement_timeout: string }[])[0]!.statement_timeout;
  };

  test('default: the app\'s statements run with a 5 s timeout, or the one DATABASE_URL names', async () => {
    expect(await timeout()).toBe('5s');
    const previous = process.env.DATABASE_URL;
    setEnv({ DATABASE_URL: withTimeout(300) });
    try {
      expect(await timeout()).toBe('300ms');
    } finally {
      setEnv({ DATABASE_URL: previous });
    }
  });

  test('behavior: a statement the timeout cancels answers 503 with Retry-After and no SQL, then the service goes on', async () => {
    const previous = process.env.DATABASE_URL!;
    const other = postgres(previous, { max: 1, onnotice: () => {} });
    setEnv({ DATABASE_URL: withTimeout(300) });
    try {
      expect((await call(listMissions, { path: '/api/missions?q=anything' })).status).toBe(200);
      // Another session holds the table: the list statement waits past its timeout.
      await other.begin(async (tx) => {
        await tx`lock table missions in access exclusive mode`;
        const response = await call(listMissions, { path: '/api/missions?q=anything' });
        expect(response.status).toBe(503);
        expect(response.body).toEqual({ error: 'Service temporarily unavailable', details: ['database unreachable'] });
        expect(response.headers.get('retry-after')).toBe('5');
      });
      expect((await call(listMissions, { path: '/api/missions?q=anything' })).status).toBe(200);
    } finally {
      await other.end();
      setEnv({ DATABASE_URL: previous });
    }
  });

  test('behavior: start-up waits out another instance\'s migration however long it takes, whatever the timeout', async () => {
    const previous = process.env.DATABASE_URL!;
    const other = postgres(previous, { max: 1, onnotice: () => {} });
    try {
      // The migrations' lock, held for five times the timeout by "another instance".
      await other`select pg_advisory_lock(7406251)`;
      setEnv({ DATABASE_URL: withTimeout(200) });
      const first = call(listMissions, { path: '/api/missions' });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await other`select pg_advisory_unlock(7406251)`;
      expect((await first).status).toBe(200);
    } finally {
      await other.end();
      setEnv({ DATABASE_URL: previous });
    }
  });
});

describe('unknown routes', () => {
  test('error: unknown paths under /api are 404 in the error shape', async () => {
    expect(await call(unknownGet, { path: '/api/nope' })).toMatchObject({ status: 404, body: { error: 'Not found' } });
    expect(await call(unknownPost, { path: '/api/nope', body: {} })).toMatchObject({ status: 404, body: { error: 'Not found' } });
  });
});
