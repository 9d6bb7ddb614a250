// The database handle: PostgreSQL through postgres.js when DATABASE_URL is set, embedded PGlite
// under DATA_DIR otherwise. Opens lazily on first use and applies the migrations in drizzle/.
import 'server-only';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { config } from '../config';
import { DependencyDown } from '../errors';
import { countDependencyError } from '../observability/metrics';
import { observeStatement, observedQuery } from '../observability/statement-spans';
import * as schema from './schema';

/** A database or a transaction: query functions take either (STYLE: `db: Db`). */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

interface Connection {
  key: string;
  db: Db;
  close(): Promise<void>;
  /** LISTEN on `channel` (docs/api.md#timeline): `onNotify` for each NOTIFY of any instance; answers the unlisten. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
}

const MIGRATIONS = { migrationsFolder: join(process.cwd(), 'drizzle') };

// PostgreSQL cancels a statement of the app's connections that runs longer than this (SQLSTATE
// 57014, answered 503 like an unreachable database): a backstop for a cost nothing else bounds,
// so one request cannot hold a connection, and a core, for minutes. Our statements take
// milliseconds — the searched board's walks are bounded (lib/board/matched-page.ts) — so none
// comes near it. postgres.js sends a DATABASE_URL's query parameters as connection parameters
// after this one: `?statement_timeout=…` there replaces it.
const STATEMENT_TIMEOUT_MS = 5_000;

async function openPostgres(url: string): Promise<Connection> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  await migratePostgres(url);
  const client = postgres(url, {
    max: 10,
    connect_timeout: 5,
    idle_timeout: 30,
    // postgres.js waits before reconnecting up to 20 s by default (3^failures / 100 s, failures
    // counted across the pool), and a query handed to a connection in that wait waits too: a
    // PostgreSQL restart then stalls requests for up to 20 s — during the outage instead of a 503,
    // and after it, long after the database is back. At most 1 s keeps both prompt.
    backoff: (failures: number) => Math.min(0.05 * 2 ** failures, 1),
    onnotice: () => {},
    connection: { statement_timeout: STATEMENT_TIMEOUT_MS },
  });
  const db = drizzle(preparing(client), { schema });
  return {
    key: url,
    db: db as unknown as Db,
    close: () => client.end({ timeout: 5 }),
    // postgres.js holds one connection of its own for LISTEN and listens again after a reconnect.
    listen: async (channel, onNotify) => {
      const { unlisten } = await client.listen(channel, onNotify);
      return unlisten;
    },
  };
}

/**
 * The migrations, on a connection of their own without the statement timeout: a migration may
 * rightly take longer (an index on a large table), and so may the wait for the lock while another
 * instance runs one. Many instances may start at once: one migrates while the others wait.
 */
async function migratePostgres(url: string): Promise<void> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  const client = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    // Whatever the URL asks for: this session's statements run to the end. One connection, so the
    // setting, the lock and the migrations share a session; ending it releases the lock.
    await client`set statement_timeout = 0`;
    await client`select pg_advisory_lock(7406251)`;
    await migrate(drizzle(client), MIGRATIONS);
  } finally {
    await client.end({ timeout: 1 }).catch(() => {});
  }
}

type Sql = import('postgres').Sql;

/**
 * The client with every statement prepared. Drizzle asks postgres.js not to prepare the queries it
 * builds, and an unprepared query with parameters costs two round trips (describe, then execute)
 * and a fresh parse and plan in PostgreSQL each time: most of a read's cost. Our statements are a
 * bounded set of shapes, so each is prepared once per connection; transactions and savepoints get
 * the same client. Each statement is observed (docs/api.md#observability: a span, failures counted).
 */
function preparing(sql: Sql): Sql {
  const wrapScope = (fn: unknown) => (typeof fn === 'function' ? (inner: Sql) => fn(preparing(inner)) : fn);
  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property === 'unsafe') {
        return (query: string, params?: unknown[], options?: object) =>
          observedQuery(query, target.unsafe(query, params as never, { ...options, prepare: true }));
      }
      if (property === 'begin' || property === 'savepoint') {
        const scope = Reflect.get(target, property, receiver) as (...a: unknown[]) => unknown;
        return (...args: unknown[]) => scope.apply(target, args.map(wrapScope));
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

async function openPglite(dataDir: string): Promise<Connection> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  mkdirSync(dataDir, { recursive: true });
  const client = observedPglite(await PGlite.create(join(dataDir, 'pglite')));
  const db = drizzle(client, { schema });
  await migrate(db, MIGRATIONS);
  return {
    key: `pglite:${dataDir}`,
    db: db as unknown as Db,
    close: () => client.close(),
    // PGlite delivers a committed NOTIFY to its own listeners: one process, one database.
    listen: (channel, onNotify) => client.listen(channel, onNotify),
  };
}

type Queryable = Pick<import('@electric-sql/pglite').Transaction, 'query'>;

/** PGlite with each statement observed, inside transactions too (what drizzle calls: query, transaction). */
function observedPglite<C extends Queryable & { transaction: import('@electric-sql/pglite').PGlite['transaction'] }>(
  client: C,
): C {
  observeQueries(client);
  const transaction = client.transaction.bind(client);
  client.transaction = (work) => transaction((tx) => work(observeQueries(tx)));
  return client;
}

function observeQueries<Q extends Queryable>(target: Q): Q {
  const query = target.query.bind(target);
  target.query = ((text: string, ...rest: unknown[]) =>
    observeStatement(text, () => (query as (...a: unknown[]) => Promise<never>)(text, ...rest))) as Q['query'];
  return target;
}

// Cached on globalThis so dev hot reload and test module isolation do not leak connections.
const store = globalThis as unknown as { __taskmarketDb?: Promise<Connection> };

/** The database of the current configuration, connected and migrated. */
export async function getDb(): Promise<Db> {
  const cfg = config();
  const key = cfg.databaseUrl ?? `pglite:${cfg.dataDir}`;
  let pending = store.__taskmarketDb;
  if (pending) {
    const connection = await pending.catch(() => undefined);
    if (connection?.key === key) return connection.db;
    if (connection) await connection.close().catch(() => {});
  }
  pending = cfg.databaseUrl ? openPostgres(cfg.databaseUrl) : openPglite(cfg.dataDir);
  store.__taskmarketDb = pending;
  try {
    return (await pending).db;
  } catch (error) {
    // Do not cache a failed connection: the next request tries again, so the service recovers.
    if (store.__taskmarketDb === pending) store.__taskmarketDb = undefined;
    countDependencyError('database');
    throw new DependencyDown('database', error);
  }
}

/** LISTEN on the current database's `channel`; answers the unlisten. */
export async function listenDb(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
  await getDb();
  const connection = await store.__taskmarketDb!;
  return connection.listen(channel, onNotify);
}

/** Closes the cached connection (tests, graceful shutdown). */
export async function closeDb(): Promise<void> {
  const pending = store.__taskmarketDb;
  store.__taskmarketDb = undefined;
  const connection = await pending?.catch(() => undefined);
  await connection?.close().catch(() => {});
}

/** A cheap round trip for the health check. */
export async function pingDb(): Promise<void> {
  const db = await getDb();
  await db.execute(sql`select 1`);
}
