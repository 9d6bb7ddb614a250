// A database of this test file's own on PostgreSQL too (PGlite files have one anyway), for tests
// of marketplace-wide figures — public totals, leaderboard ranks — that other test files running
// at the same time on the shared run database would disturb. Call before useTestEnvironment and
// pass the answer to it; the database is created before the file's tests and dropped after them.
import { afterAll, beforeAll } from 'vitest';
import { scratchDatabase } from './scratch-database';

export function isolatedDatabase(): { DATABASE_URL?: string } {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) return {};
  const database = scratchDatabase(server, 'iso');
  beforeAll(() => database.create());
  // Registered before useTestEnvironment's afterAll, so it runs after the connection is closed;
  // `with (force)` makes sure of it anyway.
  afterAll(() => database.drop());
  return { DATABASE_URL: database.url };
}
