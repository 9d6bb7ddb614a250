// The run's backends for a production server a suite starts (SDK, CLI, MCP, e2e): PGlite and memory
// by default; with TEST_DATABASE_URL a database of the server's own on that PostgreSQL (its chain's
// task ids must not meet another chain's); TEST_REDIS_URL, or the Upstash stand-in the vitest setup
// provides, under a key prefix of its own — so the same suites run on PostgreSQL + Redis as in CI.
import { randomBytes, randomUUID } from 'node:crypto';

export interface ServerBackends {
  /** Settings for startAppServer: nothing on the embedded defaults. */
  env: Record<string, string>;
  /** Drops the server's database, once the server has stopped. */
  drop(): Promise<void>;
}

export async function serverBackends(label: string, kvRest?: { url: string; token: string } | null): Promise<ServerBackends> {
  const env: Record<string, string> = {};
  let drop = async () => {};
  const server = process.env.TEST_DATABASE_URL;
  if (server) {
    const { default: postgres } = await import('postgres');
    const admin = async (statement: string) => {
      const sql = postgres(server, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(statement);
      } finally {
        await sql.end();
      }
    };
    const name = `taskmarket_${label}_${process.pid}_${randomBytes(4).toString('hex')}`;
    await admin(`create database ${name}`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    drop = () => admin(`drop database if exists ${name} with (force)`);
  }
  if (kvRest) Object.assign(env, { KV_REST_API_URL: kvRest.url, KV_REST_API_TOKEN: kvRest.token });
  else if (process.env.TEST_REDIS_URL) env.REDIS_URL = process.env.TEST_REDIS_URL;
  if (env.KV_REST_API_URL || env.REDIS_URL) Object.assign(env, { KV_PREFIX: `${label}:${randomUUID()}:`, SINGLE_INSTANCE: '0' });
  return { env, drop };
}
