// PostgreSQL crashed and restarted under load (docs/api.md#errors, 503): verify and authenticated reads answer
// 503 while it is down, nothing a 200 confirmed is lost, and both instances recover by themselves.
// The PostgreSQL is this file's own server, so nothing else on the machine loses its database.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { request, signIn } from '../support/faults/client';
import { loggedFailures, productionEnv, startPair, type Pair } from '../support/faults/instances';
import {
  expectOnlyDocumentedAnswers,
  expectPromptAnswers,
  type SignedInUser,
  startLoad,
  tally,
} from '../support/faults/load';
import { startPostgres, until, type PostgresServer } from '../support/faults/services';

const MACHINE_REDIS = 'redis://127.0.0.1:6379';

let postgres: PostgresServer;
let pair: Pair;

beforeAll(async () => {
  postgres = await startPostgres();
  await postgres.createDatabase('taskmarket');
  pair = await startPair(
    productionEnv(
      { databaseUrl: postgres.url('taskmarket'), redisUrl: MACHINE_REDIS },
      { NONCE_RATE_LIMIT_PER_MINUTE: '1000000', VERIFY_RATE_LIMIT_PER_MINUTE: '1000000' },
    ),
  );
});

afterAll(async () => {
  await pair?.stop();
  await postgres?.close();
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
  'behavior: with PostgreSQL restarted under load, verify and reads answer 503 meanwhile, ' +
    'nothing committed is lost, and both instances recover without a restart',
  async () => {
    const pids = pair.both.map((instance) => instance.pid);
    const before: SignedInUser[] = [];
    for (let i = 0; i < 6; i++) {
      const { account, token, user } = await signIn(pair.both[i % 2]!, pair.both[(i + 1) % 2]!);
      before.push({ account, token, userId: user.id });
    }

    const load = startLoad(pair, { users: before });
    try {
      await until('sign-ins under load', () => load.signedIn.length >= before.length + 5);

      // Immediate mode: connections cut mid-query, no shutdown checkpoint; the restart replays the WAL.
      await postgres.crash();
      const downFrom = Date.now();
      const answeredDown = (kind: string) => load.between(downFrom, Date.now()).filter((s) => s.kind === kind).length;
      await until(
        'verifies and reads answered while PostgreSQL is down',
        () => answeredDown('verify') >= 5 && answeredDown('me') >= 5,
      );
      const downTo = Date.now();
      await postgres.start();

      // Everything that needs the database, sent after the crash and answered before the restart: 503.
      // Nonces live in Redis and keep being issued.
      const down = load.between(downFrom, downTo).filter((s) => s.kind !== 'nonce');
      expect(tally(down)).toMatchObject({ verify: { 503: expect.any(Number) }, me: { 503: expect.any(Number) } });
      for (const sample of down) {
        expect(sample, sample.kind).toMatchObject({
          status: 503,
          body: { error: 'Service temporarily unavailable', details: ['database unreachable'] },
        });
      }

      await until('sign-in across both instances after PostgreSQL is back', signsInBothWays, 30_000);
      expect(pair.both.map((instance) => instance.pid)).toEqual(pids);
    } finally {
      await load.stop();
    }
    expectOnlyDocumentedAnswers(load.samples);
    expectPromptAnswers(load.samples);

    // Every user a verify confirmed — before the crash, and under load around it — is still there,
    // on both instances, and signs in again as the same user.
    expect(load.signedIn.length).toBeGreaterThan(before.length);
    for (const [i, user] of load.signedIn.entries()) {
      const me = await request(pair.both[i % 2]!, '/api/auth/me', { token: user.token });
      expect(me, user.account.address).toMatchObject({ status: 200, body: { user: { id: user.userId } } });
    }
    for (const user of before) {
      expect((await signIn(pair.b, pair.a, user.account)).user.id).toBe(user.userId);
    }
    expect([...loggedFailures(pair.a), ...loggedFailures(pair.b)]).toEqual([]);
  },
);
