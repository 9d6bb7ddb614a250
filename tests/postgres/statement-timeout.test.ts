// lib/db/client.ts: PostgreSQL cancels a statement of the app's connections after 5 s (a
// `statement_timeout` in DATABASE_URL replaces that; these tests use one of a few hundred ms), and
// the request answers 503; the migrations at start-up run without it. PGlite, the embedded
// default, has no statement timeout (it runs in-process): tests/postgres/ is part of the suite only
// where TEST_DATABASE_URL names a PostgreSQL server (vitest.config.ts), as in CI's PostgreSQL runs.
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { describe, expect, test } from 'vitest';
import { GET as listMissions } from '@/app/api/missions/route';
import { call } from '../support/http';
import { db } from '../support/missions';
import { setEnv, useTestEnvironment } from '../support/environment';

useTestEnvironment();

describe('statement timeout', () => {
  const withTimeout = (ms: number) => {
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set('statement_timeout', String(ms));
    return url.toString();
  };
  const timeout = async () => {
    const result = await (await db()).execute(sql`show statement_timeout`);
    return (result as unknown as { statement_timeout: string }[])[0]!.statement_timeout;
  };

  test("default: the app's statements run with a 5 s timeout, or the one DATABASE_URL names", async () => {
    expect(await timeout()).toBe('5s');
    const previous = process.env.DATABASE_URL;
    setEnv({ DATABASE_URL: withTimeout(300) });
    try {
      expect(await timeout()).toBe('300ms');
    } finally {
      setEnv({ DATABASE_URL: previous });
    }
  });

  test(
    'behavior: a statement the timeout cancels answers 503 with Retry-After and no SQL, ' + 'then the service goes on',
    async () => {
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
          expect(response.body).toEqual({
            error: 'Service temporarily unavailable',
            details: ['database unreachable'],
          });
          expect(response.headers.get('retry-after')).toBe('5');
        });
        expect((await call(listMissions, { path: '/api/missions?q=anything' })).status).toBe(200);
      } finally {
        await other.end();
        setEnv({ DATABASE_URL: previous });
      }
    },
  );

  test(
    "behavior: start-up waits out another instance's migration however long it takes, " + 'whatever the timeout',
    async () => {
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
    },
  );
});
