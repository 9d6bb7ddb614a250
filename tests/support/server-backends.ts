// The run's backends for a production server a suite starts (SDK, CLI, MCP, e2e): PGlite and memory
// by default; with TEST_DATABASE_URL a database of the server's own on that PostgreSQL (its chain's
// task ids must not meet another chain's); TEST_REDIS_URL, or the Upstash stand-in the vitest setup
// provides, under a key prefix of its own — so the same suites run on PostgreSQL + Redis as in CI.
import { randomUUID } from 'node:crypto';
import { scratchDatabase } from './scratch-database';

export interface ServerBackends {
  /** Settings for startAppServer: nothing on the embedded defaults. */
  env: Record<string, string>;
  /** Drops the server's database, once the server has stopped. */
  drop(): Promise<void>;
}

export async function serverBackends(
  label: string,
  kvRest?: { url: string; token: string } | null,
): Promise<ServerBackends> {
  const env: Record<string, string> = {};
  let drop = async () => {};
  const server = process.env.TEST_DATABASE_URL;
  if (server) {
    const database = scratchDatabase(server, label);
    await database.create();
    env.DATABASE_URL = database.url;
    drop = database.drop;
  }
  if (kvRest) Object.assign(env, { KV_REST_API_URL: kvRest.url, KV_REST_API_TOKEN: kvRest.token });
  else if (process.env.TEST_REDIS_URL) env.REDIS_URL = process.env.TEST_REDIS_URL;
  if (env.KV_REST_API_URL || env.REDIS_URL)
    Object.assign(env, { KV_PREFIX: `${label}:${randomUUID()}:`, SINGLE_INSTANCE: '0' });
  return { env, drop };
}
