// A database of this test file's own on PostgreSQL too (PGlite files have one anyway), for tests
// of marketplace-wide figures — public totals, leaderboard ranks — that other test files running
// at the same time on the shared run database would disturb. Call before useTestEnvironment and
// pass the answer to it; the database is created before the file's tests and dropped after them.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';

export function isolatedDatabase(): { DATABASE_URL?: string } {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) return {};
  const name = `taskmarket_iso_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const { default: postgres } = await import('postgres');
    const sql = postgres(server, { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe(statement);
    } finally {
      await sql.end();
    }
  };
  beforeAll(() => admin(`create database ${name}`));
  // Registered before useTestEnvironment's afterAll, so it runs after the connection is closed;
  // `with (force)` makes sure of it anyway.
  afterAll(() => admin(`drop database if exists ${name} with (force)`));
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { DATABASE_URL: url.toString() };
}
