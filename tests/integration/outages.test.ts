// Dependencies that are down answer 503 with Retry-After in the documented shape — never a 500,
// never a silent fallback — and the service recovers by itself when they return.
import { describe, expect, test } from 'vitest';
import { POST as nonce } from '@/app/api/auth/nonce/route';
import { POST as verify } from '@/app/api/auth/verify/route';
import { GET as me } from '@/app/api/auth/me/route';
import { GET as health } from '@/app/api/health/route';
import { GET as unknownGet, POST as unknownPost } from '@/app/api/[...path]/route';
import { call } from '../support/http';
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
    // Serving again; `degraded` only if other suites on a shared PostgreSQL left failed settlements.
    expect((await call(health)).body).toMatchObject({
      status: expect.stringMatching(/^(ok|degraded)$/),
      kv: 'ok',
      db: 'ok',
      chain: 'ok',
    });
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

describe('unknown routes', () => {
  test('error: unknown paths under /api are 404 in the error shape', async () => {
    expect(await call(unknownGet, { path: '/api/nope' })).toMatchObject({ status: 404, body: { error: 'Not found' } });
    expect(await call(unknownPost, { path: '/api/nope', body: {} })).toMatchObject({
      status: 404,
      body: { error: 'Not found' },
    });
  });
});
