// What the SDK does when the server says "not now" or "not that token": it signs in again when its
// token expires or is refused, retries 429 and 503 after Retry-After a bounded number of times,
// and keeps one Idempotency-Key across the retries of a create. Against the real production
// server; a proxy (support/api-proxy.ts) injects the 429s and 503s, because the server's real
// limits have minute and hour windows and a test cannot make its database fail on cue.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createClient, TaskmarketError } from '../../sdk/src/index';
import { startApiProxy, type ProxiedRequest } from '../support/sdk/api-proxy';
import { SERVER_START_TIMEOUT, startSdkTestServer, type SdkTestServer } from '../support/sdk/server';
import { clientWallet, deadlineIn, sdkClient } from '../support/sdk/sdk-fixtures';

let server: SdkTestServer;
const proxies: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  server = await startSdkTestServer({
    // The shortest token lifetime the server allows: the expiry test waits it out.
    JWT_TTL_SECONDS: '60',
    // Any localhost port: the SDK behind the proxy signs in for the proxy's host, as it should.
    SIWE_DOMAIN: 'localhost',
  });
}, SERVER_START_TIMEOUT);

afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  await server?.stop();
});

/** A fetch that counts sign-ins and remembers the tokens the SDK sent. */
function watchedFetch() {
  const watch = { verifies: 0, tokens: [] as string[] };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = String(input);
    if (url.endsWith('/api/auth/verify')) watch.verifies++;
    const authorization = new Headers(init?.headers).get('authorization');
    if (authorization) watch.tokens.push(authorization.slice('Bearer '.length));
    return globalThis.fetch(input, init);
  };
  return { watch, fetch };
}

const expiryOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp * 1000;
const meWith = (token: string) => fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });

async function proxy(decide: Parameters<typeof startApiProxy>[1]) {
  const started = await startApiProxy(server.url, decide);
  proxies.push(started);
  return started;
}
const to = (path: string) => (request: ProxiedRequest) => request.path.split('?')[0] === path;

// Concurrent: the expiry test waits a minute, the others run meanwhile.
describe.concurrent('sign-in again', () => {
  test('behavior: the token expires mid-run and the SDK signs in again by itself', async () => {
    const { watch, fetch } = watchedFetch();
    const tm = sdkClient(server, privateKeyToAccount(generatePrivateKey()), { fetch });
    const { token, user } = await tm.signIn();
    const expiresAt = expiryOf(token);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(60_000);
    await tm.auth.me();
    expect(watch.verifies).toBe(1);

    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now()) + 1500));
    expect((await meWith(token)).status).toBe(401); // the server refuses it now
    const me = await tm.auth.me();
    expect(me.user.id).toBe(user.id);
    expect(watch.verifies).toBe(2);
    expect(watch.tokens.at(-1)).not.toBe(token);
  }, 120_000);

  test('behavior: a token the server refuses (revoked elsewhere) is replaced and the call repeated once', async () => {
    const { watch, fetch } = watchedFetch();
    const tm = sdkClient(server, privateKeyToAccount(generatePrivateKey()), { fetch });
    const { token } = await tm.signIn();
    // Someone logs this token out behind the SDK's back.
    expect(
      (
        await globalThis.fetch(`${server.url}/api/auth/logout`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(200);
    expect((await meWith(token)).status).toBe(401);

    const me = await tm.auth.me();
    expect(me.user.walletAddress).toBe(tm.address!.toLowerCase());
    expect(watch.verifies).toBe(2);
    expect(watch.tokens.filter((t) => t === token)).toHaveLength(1); // the refused token was sent once, then replaced
  });

  test('behavior: concurrent first calls share one sign-in', async () => {
    const { watch, fetch } = watchedFetch();
    const tm = sdkClient(server, privateKeyToAccount(generatePrivateKey()), { fetch });
    const answers = await Promise.all([tm.auth.me(), tm.account.profile(), tm.account.stats(), tm.auth.me()]);
    expect(answers).toHaveLength(4);
    expect(watch.verifies).toBe(1);
  });

  test('behavior: logout revokes the token and the next call signs in afresh', async () => {
    const { watch, fetch } = watchedFetch();
    const tm = sdkClient(server, privateKeyToAccount(generatePrivateKey()), { fetch });
    const { token } = await tm.signIn();
    expect(await tm.auth.logout()).toEqual({ ok: true });
    expect((await meWith(token)).status).toBe(401);
    await tm.auth.me();
    expect(watch.verifies).toBe(2);
  });
});

describe.concurrent('retries', () => {
  test('behavior: a 429 is retried after its Retry-After', async () => {
    // The proxy answers the first request for the stats with 429 + Retry-After: 1, then passes.
    const api = await proxy((request, seen) =>
      to('/api/public/stats')(request) && !seen.some(to('/api/public/stats'))
        ? { reply: 429, retryAfter: '1' }
        : undefined,
    );
    const tm = createClient({ baseUrl: api.url });
    const started = Date.now();
    const stats = await tm.public.stats();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(stats.missions.total).toEqual(expect.any(Number));
    expect(api.seen.filter(to('/api/public/stats'))).toHaveLength(2);
  });

  test('error: a 429 that persists gives up after maxRetries, as a TaskmarketError 429', async () => {
    const api = await proxy((request) =>
      to('/api/public/stats')(request) ? { reply: 429, retryAfter: '0' } : undefined,
    );
    const error = await createClient({ baseUrl: api.url, maxRetries: 2 })
      .public.stats()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskmarketError);
    expect(error).toMatchObject({ status: 429, error: 'Too many requests (injected by the test proxy)' });
    expect(api.seen.filter(to('/api/public/stats'))).toHaveLength(3); // the call and two retries
  });

  test('error: a Retry-After longer than a minute is not waited for', async () => {
    const api = await proxy((request) => (to('/api/health')(request) ? { reply: 503, retryAfter: '3600' } : undefined));
    const started = Date.now();
    const error = await createClient({ baseUrl: api.url })
      .health()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(api.seen.filter(to('/api/health'))).toHaveLength(1);
  });

  test(
    'behavior: a 503 after the server created the mission is retried with the same ' + 'Idempotency-Key: one mission',
    async () => {
      // The proxy lets the first create through to the server, then loses its answer behind a 503 —
      // as a load balancer timing out would. The retry must not post (or pay for) a second mission.
      const api = await proxy((request, seen) =>
        request.method === 'POST' && to('/api/missions')(request) && !seen.some(to('/api/missions'))
          ? { lose: 503, retryAfter: '1' }
          : undefined,
      );
      const tm = createClient({
        baseUrl: api.url,
        account: await clientWallet(server, 3_000_000n),
        rpcUrl: server.chain.rpcUrl,
      });
      const title = `Idempotent ${Date.now()}`;
      const mission = await tm.fundAndCreateMission({
        title,
        description: 'Posted once',
        reward: '3000000',
        deadline: deadlineIn(5),
      });
      const creates = api.seen.filter((r) => r.method === 'POST' && to('/api/missions')(r));
      expect(creates).toHaveLength(2);
      expect(creates[0]!.headers['idempotency-key']).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
      expect(creates[1]!.headers['idempotency-key']).toBe(creates[0]!.headers['idempotency-key']);
      const mine = await tm.missions.list({ mine: 'client' });
      expect(mine.items.map((m) => m.id)).toEqual([mission.id]);
      expect(mine.items[0]!.title).toBe(title);
    },
  );

  test('behavior: claim sends an Idempotency-Key', async () => {
    const api = await proxy(() => undefined);
    const tm = createClient({ baseUrl: api.url, account: privateKeyToAccount(generatePrivateKey()) });
    await tm.registerAgent();
    const error = await tm.agents.claim().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 409, error: 'Nothing to claim' });
    const claims = api.seen.filter(to('/api/agents/me/claim'));
    expect(claims).toHaveLength(1);
    expect(claims[0]!.headers['idempotency-key']).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
  });
});
