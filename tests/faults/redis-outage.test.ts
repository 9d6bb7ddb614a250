// Redis killed under load (docs/api.md#errors, 503): nonce and verify answer 503 — never a 500, and never a
// quiet fallback to per-instance memory — and both instances recover by themselves once Redis is back.
// The Redis is this file's own server, so nothing else on the machine loses its KV.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { request, signIn } from '../support/faults/client';
import { loggedFailures, productionEnv, startPair, type Pair } from '../support/faults/instances';
import { expectOnlyDocumentedAnswers, expectPromptAnswers, startLoad, tally } from '../support/faults/load';
import { freshMachineDatabase, startRedis, until, type RedisServer } from '../support/faults/services';

let redis: RedisServer;
let database: Awaited<ReturnType<typeof freshMachineDatabase>>;
let pair: Pair;

beforeAll(async () => {
  [redis, database] = await Promise.all([startRedis(), freshMachineDatabase()]);
  pair = await startPair(
    productionEnv(
      { databaseUrl: database.url, redisUrl: redis.url },
      { NONCE_RATE_LIMIT_PER_MINUTE: '1000000', VERIFY_RATE_LIMIT_PER_MINUTE: '1000000' },
    ),
  );
});

afterAll(async () => {
  await pair?.stop();
  await Promise.all([redis?.close(), database?.drop()]);
});

const signsInBothWays = async () => {
  try {
    await signIn(pair.a, pair.b);
    await signIn(pair.b, pair.a);
    return true;
  } catch {
    return false;
  }
};

test(
  'behavior: with Redis killed under load, nonce and verify answer 503 (no 500, no ' +
    'fallback), and recover without a restart',
  async () => {
    const pids = pair.both.map((instance) => instance.pid);
    const load = startLoad(pair);
    try {
      await until('sign-ins under load', () => load.signedIn.length >= 5);

      await redis.kill();
      const downFrom = Date.now();
      const answeredDown = (kind: string) => load.between(downFrom, Date.now()).filter((s) => s.kind === kind).length;
      await until(
        'nonces and verifies answered while Redis is down',
        () => answeredDown('nonce') >= 5 && answeredDown('verify') >= 5,
      );
      for (const instance of pair.both) {
        expect(await request(instance, '/api/health')).toMatchObject({ status: 503, body: { kv: 'down', db: 'ok' } });
      }
      const downTo = Date.now();
      await redis.start();

      // Everything sent after the kill and answered before the restart: 503 and nothing else — a 200
      // here would be a fallback that splits nonces and limits between instances.
      const down = load.between(downFrom, downTo);
      expect(tally(down)).toMatchObject({ nonce: { 503: expect.any(Number) }, verify: { 503: expect.any(Number) } });
      for (const sample of down) {
        expect(sample, sample.kind).toMatchObject({
          status: 503,
          body: { error: 'Service temporarily unavailable', details: ['kv unreachable'] },
        });
      }

      // The same processes reconnect on their own: a full sign-in across both works again.
      await until('sign-in across both instances after Redis is back', signsInBothWays, 30_000);
      expect(pair.both.map((instance) => instance.pid)).toEqual(pids);
    } finally {
      await load.stop();
    }
    expectOnlyDocumentedAnswers(load.samples);
    expectPromptAnswers(load.samples);
    expect([...loggedFailures(pair.a), ...loggedFailures(pair.b)]).toEqual([]);
  },
);
