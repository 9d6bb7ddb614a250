// Two production instances sharing one PostgreSQL and one Redis behave as one service (docs/api.md#auth, #limits):
// nonces, the verify race, the live-nonce cap, per-IP limits and revocations hold across both.
// Every request comes from 127.0.0.1, so each limit scenario runs on a pair of its own (its own KV prefix).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startLocalChain, type LocalChain } from '@/lib/chain/local-chain';
import {
  expectDocumentedShape,
  newAccount,
  request,
  requestNonce,
  signIn,
  signedMessage,
  siweMessage,
  verify,
} from '../support/faults/client';
import { loggedFailures, productionEnv, startPair, type Pair } from '../support/faults/instances';
import { freePort } from '@/lib/chain/anvil-node';
import { freshMachineDatabase } from '../support/faults/services';
import { fundTaskOn } from '../support/escrow';

const MACHINE_REDIS = 'redis://127.0.0.1:6379';

let chain: LocalChain;
let database: Awaited<ReturnType<typeof freshMachineDatabase>>;
const pairs: Pair[] = [];

/** A pair of instances on this file's database, chain and the machine's Redis (under a prefix of its own). */
async function pairWith(overrides: Record<string, string> = {}): Promise<Pair> {
  const pair = await startPair(productionEnv({ databaseUrl: database.url, redisUrl: MACHINE_REDIS, chain }, overrides));
  pairs.push(pair);
  return pair;
}

beforeAll(async () => {
  [chain, database] = await Promise.all([startLocalChain({ port: await freePort() }), freshMachineDatabase()]);
});

afterAll(async () => {
  for (const pair of pairs) {
    // No request anywhere in this file may have been a 500.
    expect([...loggedFailures(pair.a), ...loggedFailures(pair.b)]).toEqual([]);
  }
  await Promise.all(pairs.map((pair) => pair.stop()));
  await chain?.stop();
  await database?.drop();
});

describe('shared state across two instances', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await pairWith({ NONCE_RATE_LIMIT_PER_MINUTE: '10000', VERIFY_RATE_LIMIT_PER_MINUTE: '10000' });
  });

  test('behavior: a nonce issued by one instance is verified by the other, and its token works on both', async () => {
    const { account, token, user } = await signIn(pair.a, pair.b);
    expect(user).toEqual({ id: expect.any(String), walletAddress: account.address.toLowerCase(), role: 'CLIENT' });
    for (const instance of pair.both) {
      expect(await request(instance, '/api/auth/me', { token })).toMatchObject({ status: 200, body: { user } });
    }
    // The instance that checked the signature recovered it with libsecp256k1, loaded from the
    // production bundle, not with the pure-JS fallback.
    expect(pair.b.logs()).toContain('"event":"signature.recovery"');
    expect(pair.b.logs()).toContain('"backend":"libsecp256k1"');
  });

  test('behavior: a 25-way verify race split across both instances yields exactly one 200', async () => {
    const signed = await signedMessage(pair.a);
    const replies = await Promise.all(Array.from({ length: 25 }, (_, i) => verify(pair.both[i % 2]!, signed)));
    replies.forEach(expectDocumentedShape);
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = replies.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(24);
    expect(refused.every((r) => r.status === 401 && r.body.error === 'Nonce expired or unknown')).toBe(true);
  });

  test('behavior: a 20-way accept race split across both instances has one winner', async () => {
    const client = await signIn(pair.a);
    const taskId = await fundTaskOn({ rpcUrl: chain.rpcUrl, ...chain.contracts }, client.account, 5_000_000n);
    const created = await request(pair.a, '/api/missions', {
      token: client.token,
      body: {
        title: 'Race',
        description: 'Twenty agents, one mission.',
        category: 'code',
        reward: '5000000',
        deadline: new Date(Date.now() + 86_400_000).toISOString(),
        onChainTaskId: taskId,
      },
    });
    expect(created.status).toBe(201);
    const agents = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const { token } = await signIn(pair.both[i % 2]!);
        const registered = await request(pair.both[i % 2]!, '/api/auth/register-agent', { method: 'POST', token });
        return registered.body.token as string;
      }),
    );
    const replies = await Promise.all(
      agents.map((token, i) =>
        request(pair.both[i % 2]!, `/api/missions/${created.body.id}/accept`, { method: 'POST', token }),
      ),
    );
    replies.forEach(expectDocumentedShape);
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(19);
    const seen = await request(pair.b, `/api/missions/${created.body.id}`, { token: client.token });
    expect(seen.body).toMatchObject({ status: 'ACCEPTED', agent: { walletAddress: expect.any(String) } });
  });

  test('behavior: a token revoked on one instance is refused by the other', async () => {
    const { token } = await signIn(pair.b);
    expect((await request(pair.b, '/api/auth/me', { token })).status).toBe(200);
    expect(await request(pair.a, '/api/auth/logout', { method: 'POST', token })).toMatchObject({
      status: 200,
      body: { ok: true },
    });
    for (const instance of pair.both) {
      const reply = await request(instance, '/api/auth/me', { token });
      expect(reply).toMatchObject({ status: 401, body: { error: 'Token revoked' } });
    }
  });
});

describe('limits counted across two instances', () => {
  test('behavior: the live-nonce cap counts nonces issued by both instances', async () => {
    const pair = await pairWith({ NONCE_MAX_LIVE: '6' });
    const account = newAccount();
    const issued = [];
    for (let i = 0; i < 6; i++) issued.push(await requestNonce(pair.both[i % 2]!, account.address));
    expect(issued.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);

    for (const instance of pair.both) {
      const full = await requestNonce(instance, account.address);
      expect(full).toMatchObject({ status: 503, body: { error: 'Nonce storage full, try again shortly' } });
      expectDocumentedShape(full);
    }
    // A nonce used up on one instance frees its place for the other.
    const message = siweMessage(account, issued[0]!.body.nonce);
    expect((await verify(pair.b, { message, signature: await account.signMessage({ message }) })).status).toBe(200);
    expect((await requestNonce(pair.a, account.address)).status).toBe(200);
    expect((await requestNonce(pair.b, account.address)).status).toBe(503);
  });

  test('behavior: the per-IP nonce rate limit counts requests to both instances', async () => {
    const pair = await pairWith({ NONCE_RATE_LIMIT_PER_MINUTE: '8' });
    const account = newAccount();
    const replies = [];
    for (let i = 0; i < 8; i++) replies.push(await requestNonce(pair.both[i % 2]!, account.address));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
    // One window, counted down by both instances alike.
    expect(replies.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['7', '6', '5', '4', '3', '2', '1', '0']);
    for (const instance of pair.both) {
      const limited = await requestNonce(instance, account.address);
      expect(limited).toMatchObject({ status: 429, body: { error: 'Too many requests' } });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});

// docs/api.md#settlements: one sender per key across all instances — two instances minting at the same
// instant each read the registrar's nonce under the shared lease, so both mints are mined and
// neither is refused as "nonce too low" or replaced.
describe('one registrar, two instances', () => {
  test('behavior: agents registering on both instances at the same instant all get a minted passport', async () => {
    const pair = await pairWith({
      NONCE_RATE_LIMIT_PER_MINUTE: '10000',
      VERIFY_RATE_LIMIT_PER_MINUTE: '10000',
      MINT_WAIT_MS: '10000',
    });
    const users = await Promise.all(Array.from({ length: 6 }, (_, i) => signIn(pair.both[i % 2]!, pair.both[i % 2]!)));
    const replies = await Promise.all(
      users.map(({ token }, i) => request(pair.both[i % 2]!, '/api/auth/register-agent', { token, method: 'POST' })),
    );
    replies.forEach(expectDocumentedShape);
    expect(replies.map((r) => [r.status, r.body.passport?.status])).toEqual(Array(6).fill([200, 'MINTED']));
    expect(new Set(replies.map((r) => r.body.passport.tokenId)).size).toBe(6);
    expect(pair.a.logs() + pair.b.logs()).not.toMatch(
      /nonce too low|replacement transaction underpriced|already known/i,
    );
  });
});
