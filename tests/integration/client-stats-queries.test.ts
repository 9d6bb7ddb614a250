// docs/api.md#client-record: the board's client.stats cost one statement a page, whatever its size and however
// many clients it shows — counted as the statements' spans under the request's span, exported over OTLP/HTTP
// to a real receiver (as tests/integration/tracing.test.ts does). And an instance shares what it read of a
// client among the pages of one second: a busy board reads its clients' figures once a second.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { GET as listRoute } from '@/app/api/missions/route';
import { STATS_TTL_MS } from '@/lib/clients/board-stats';
import { config } from '@/lib/config';
import { type Tracing, startTracing } from '@/lib/observability/start-tracing';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { isolatedDatabase } from '../support/isolated-database';
import { createMission, newClient } from '../support/missions';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver';

useTestEnvironment({ ...isolatedDatabase(), ...BOOKKEEPING });

let receiver: OtlpReceiver;
let tracing: Tracing | undefined;
const start = () => startTracing({ ...config().otel, endpoint: receiver.url, serviceName: 'taskmarket-test' });

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = start();
});

afterAll(async () => {
  await tracing?.stop();
  await receiver.close();
});

/** The SQL statements one board page ran, and the page. */
async function statementsOf(limit: number) {
  receiver.spans.splice(0);
  const page = await call(listRoute, { path: `/api/missions?limit=${limit}` });
  expect(page.status).toBe(200);
  await tracing!.stop();
  tracing = start();
  const requests = receiver.spans.filter((span) => span.name === 'GET /api/missions' && span.kind === 2);
  expect(requests).toHaveLength(1);
  const trace = receiver.spans.filter((span) => span.traceId === requests[0]!.traceId);
  const statements = trace.filter((span) => span.kind === 3 && /^(SELECT|WITH|INSERT|UPDATE|DELETE)\b/.test(span.name));
  return { statements: statements.map((span) => span.name), items: page.body.items };
}

describe('client.stats on the board (docs/api.md#client-record)', () => {
  test('behavior: a page of 2 and a page of 20, each mission of another client, run as many statements', async () => {
    for (let n = 0; n < 20; n += 1) await createMission(await newClient());
    await statementsOf(1); // the statements prepared once per shape
    const small = await statementsOf(2);
    const large = await statementsOf(20);
    expect(small.items).toHaveLength(2);
    expect(large.items).toHaveLength(20);
    for (const item of large.items) expect(item.client.stats).toMatchObject({ funded: 1, completed: 0 });
    expect(large.statements).toEqual(small.statements);
    // The page's statement and the clients' figures: nothing per item.
    expect(large.statements.length).toBeLessThanOrEqual(3);
  });

  test('behavior: pages within a second share the clients read; a second later they are read again', async () => {
    for (let n = 0; n < 3; n += 1) await createMission(await newClient());
    const first = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: first });
    try {
      await statementsOf(3); // the statements prepared once per shape
      vi.setSystemTime(first + STATS_TTL_MS);
      const read = await statementsOf(3);
      vi.setSystemTime(first + 2 * STATS_TTL_MS - 1);
      const shared = await statementsOf(3);
      // The same page, its clients' figures taken from the read of a moment ago: one statement fewer.
      expect(shared.statements).toHaveLength(read.statements.length - 1);
      expect(read.statements).toEqual(expect.arrayContaining(shared.statements));
      expect(shared.items.map((item: { client: unknown }) => item.client)).toEqual(
        read.items.map((item: { client: unknown }) => item.client),
      );
      vi.setSystemTime(first + 2 * STATS_TTL_MS);
      expect((await statementsOf(3)).statements).toEqual(read.statements);
    } finally {
      vi.useRealTimers();
    }
  });
});
