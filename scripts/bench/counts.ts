// `npm run bench:counts`: what one request costs the shared services, counted by the services
// themselves — Redis commands per sign-in (INFO commandstats) and Redis CPU per sign-in at full
// speed, PostgreSQL statements per board page (pg_stat_statements) — on a production instance
// with a PostgreSQL and a Redis of its own (tests/faults/support/services.ts), so nothing else
// running on this machine is counted. BENCH_COUNT (default 300) sign-ins and pages of each shape.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import postgres from 'postgres';
import { issueToken } from '../../lib/auth/tokens';
import type { Config } from '../../lib/config';
import { productionEnv, startInstance } from '../../tests/support/faults/instances';
import { startPostgres, startRedis } from '../../tests/support/faults/services';
import { seed, scaledSize } from './seed';
import { post, presignedVerifies } from './sign-ins';

const count = Number(process.env.BENCH_COUNT ?? 300);
const CONCURRENCY = 32;

async function pool<T>(items: T[], each: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await each(items[next++]!);
    }),
  );
}

const commandStats = async (redis: Redis): Promise<Record<string, number>> => {
  const info = await redis.info('commandstats');
  return Object.fromEntries(
    [...info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map(([, name, calls]) => [name!, Number(calls)]),
  );
};
const redisCpu = async (redis: Redis): Promise<number> => {
  const info = await redis.info('cpu');
  const read = (name: string) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1] ?? 0);
  return read('used_cpu_user') + read('used_cpu_sys');
};

/**
 * Per request: Redis round trips (commands sent by a client, seen by MONITOR; a Lua script is one)
 * and the commands Redis executed (INFO commandstats: a script's own commands counted too).
 */
async function redisPer(redis: Redis, requests: number, work: () => Promise<void>) {
  const monitor = await redis.monitor();
  let roundTrips = 0;
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source !== 'lua' && !/^(info|config|monitor)$/i.test(args[0] ?? '')) roundTrips += 1;
  });
  await redis.config('RESETSTAT');
  await work();
  const stats = await commandStats(redis);
  monitor.disconnect();
  for (const name of Object.keys(stats)) if (/^(info|config|monitor)/.test(name)) delete stats[name];
  const per = Object.fromEntries(Object.entries(stats).map(([name, calls]) => [name, calls / requests]));
  return { per, roundTrips: roundTrips / requests, total: Object.values(per).reduce((a, b) => a + b, 0) };
}

/** Per request: the statements PostgreSQL executed (pg_stat_statements calls), by statement. */
async function statementsPer(sql: postgres.Sql, requests: number, work: () => Promise<void>) {
  await sql`select pg_stat_statements_reset()`;
  await work();
  const rows = await sql<{ query: string; calls: number }[]>`
    select query, calls::int from pg_stat_statements
    where dbid = (select oid from pg_database where datname = current_database())
      and query not like '%pg_stat_statements%'
    order by calls desc`;
  return {
    total: rows.reduce((n, r) => n + r.calls, 0) / requests,
    statements: rows.map((r) => ({ calls: r.calls / requests, query: r.query.replace(/\s+/g, ' ').slice(0, 90) })),
  };
}

/** The Redis commands one sign-in sends (nonce, then verify), and its nonce. */
async function captureSignIn(
  redis: Redis,
  base: string,
  options: { domain: string },
): Promise<{ nonce: string; commands: string[][] }> {
  const monitor = await redis.monitor();
  const commands: string[][] = [];
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source !== 'lua' && !/^(info|config|monitor)$/i.test(args[0] ?? '')) commands.push(args);
  });
  const [body] = await presignedVerifies(base, 1, options);
  await post(base, '/api/auth/verify', JSON.parse(body!));
  await new Promise((r) => setTimeout(r, 200));
  monitor.disconnect();
  const nonce = /Nonce: ([0-9a-f]+)/.exec((JSON.parse(body!) as { message: string }).message)![1]!;
  return { nonce, commands };
}

async function main() {
  const pg = await startPostgres({ shared_preload_libraries: 'pg_stat_statements' });
  const kv = await startRedis();
  await pg.createDatabase('counts');
  const databaseUrl = pg.url('counts');
  const jwtSecret = randomBytes(32).toString('hex');
  const instance = await startInstance(
    productionEnv(
      { databaseUrl, redisUrl: kv.url },
      {
        JWT_SECRET: jwtSecret,
        SIWE_DOMAIN: 'localhost:3000',
        // Counted, not refused: every request of this run comes from 127.0.0.1.
        NONCE_RATE_LIMIT_PER_MINUTE: '100000000',
        VERIFY_RATE_LIMIT_PER_MINUTE: '100000000',
      },
    ),
  );
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const redis = new Redis(kv.url);
  try {
    const health = await fetch(`${instance.url}/api/health`);
    if (!health.ok) throw new Error(`health: ${health.status}`);
    await sql`create extension if not exists pg_stat_statements`;
    console.log('seeding 10,000 missions …');
    const { clientWallet } = await seed(databaseUrl, scaledSize(10_000));
    const base = instance.url;
    const options = { domain: 'localhost:3000' };
    // Warm: each statement prepared on the pool's connections before anything is counted.
    await pool(await presignedVerifies(base, 64, options), (body) => post(base, '/api/auth/verify', JSON.parse(body)));

    const lines: string[] = [];
    // Nonces are counted on their own, then verifies over nonces issued before the count.
    const nonceCount = await redisPer(redis, count, () =>
      pool(
        Array.from({ length: count }, (_, i) => i),
        () => post(base, '/api/auth/nonce', { address: '0x000000000000000000000000000000000000dead' }),
      ),
    );
    const bodies = await presignedVerifies(base, count, options);
    const verifyDb = await statementsPer(sql, count, async () => {
      const verifyCount = await redisPer(redis, count, () =>
        pool(bodies, (body) => post(base, '/api/auth/verify', JSON.parse(body))),
      );
      lines.push(
        `verify: ${verifyCount.roundTrips.toFixed(2)} Redis round trips, ` +
          `${verifyCount.total.toFixed(2)} commands executed (${JSON.stringify(verifyCount.per)})`,
      );
    });
    lines.unshift(
      `nonce: ${nonceCount.roundTrips.toFixed(2)} Redis round trips, ` +
        `${nonceCount.total.toFixed(2)} commands executed (${JSON.stringify(nonceCount.per)})`,
    );
    lines.push(
      `verify: ${verifyDb.total.toFixed(2)} PostgreSQL statements: ` +
        `${verifyDb.statements.map((s) => `${s.calls.toFixed(2)}× ${s.query}`).join(' | ')}`,
    );

    // Redis CPU per sign-in: one sign-in's commands (MONITOR) replayed from 16 connections, one
    // command at a time as the instances send them, each replay over a nonce of its own.
    const replays = count * 20;
    const { nonce, commands } = await captureSignIn(redis, base, options);
    const connections = Array.from({ length: 16 }, () => new Redis(kv.url));
    const idleFrom = await redisCpu(redis);
    await new Promise((r) => setTimeout(r, 3_000));
    const idlePerMs = ((await redisCpu(redis)) - idleFrom) / 3_000;
    const busyFrom = await redisCpu(redis);
    const busyStart = Date.now();
    let started = 0;
    await Promise.all(
      connections.map(async (connection) => {
        while (started++ < replays) {
          const fresh = randomBytes(16).toString('hex');
          for (const [name, ...args] of commands)
            await connection.call(name!, ...args.map((arg) => arg.replaceAll(nonce, fresh)));
        }
      }),
    );
    const busyMs = Date.now() - busyStart;
    const cpuPerSignIn = ((await redisCpu(redis)) - busyFrom - idlePerMs * busyMs) / replays;
    for (const connection of connections) connection.disconnect();
    lines.push(
      `Redis CPU per sign-in (nonce + verify, ${commands.length} commands replayed ${replays} ` +
        `times): ${(cpuPerSignIn * 1e6).toFixed(1)} µs → one Redis core carries ~` +
        `${Math.round(1 / cpuPerSignIn)} sign-ins/s (replayed at ` +
        `${((replays / busyMs) * 1000).toFixed(0)}/s)`,
    );

    // Board pages: anonymous first pages of each shape, a next page, and a signed-in caller's.
    // A seeded client's own token: 50 missions in every state (seed.ts).
    const [client] = await sql<{ id: string }[]>`select id from users where wallet_address = ${clientWallet}`;
    const token = await issueToken({ jwtSecret, jwtTtlSeconds: 3600 } as Config, {
      id: client!.id,
      walletAddress: clientWallet,
      role: 'CLIENT',
    });
    const page = await fetch(`${base}/api/missions`).then((r) => r.json() as Promise<{ nextCursor: string }>);
    const shapes: [string, string, Record<string, string>][] = [
      ['board, first page', '/api/missions', {}],
      ['board, next page (cursor)', `/api/missions?cursor=${encodeURIComponent(page.nextCursor)}`, {}],
      ['board, search q=translate', '/api/missions?q=translate', {}],
      ['board, category=code sort=reward', '/api/missions?category=code&sort=reward', {}],
      ['board, signed in (bearer)', '/api/missions', { authorization: `Bearer ${token}` }],
      ['mine=client (bearer)', '/api/missions?mine=client', { authorization: `Bearer ${token}` }],
      ['one mission (GET /api/missions/:id)', '', {}],
    ];
    const one = await fetch(`${base}/api/missions?limit=1`).then(
      (r) => r.json() as Promise<{ items: { id: string }[] }>,
    );
    shapes[shapes.length - 1]![1] = `/api/missions/${one.items[0]!.id}`;
    for (const [name, path, headers] of shapes) {
      const get = async () => {
        const response = await fetch(base + path, { headers });
        if (!response.ok) throw new Error(`${path}: ${response.status}`);
        await response.arrayBuffer();
      };
      await pool(Array.from({ length: 32 }), get);
      let kv = { roundTrips: 0, total: 0 };
      const db = await statementsPer(sql, count, async () => {
        kv = await redisPer(redis, count, () => pool(Array.from({ length: count }), get));
      });
      lines.push(
        `${name}: ${db.total.toFixed(2)} PostgreSQL statements, ${kv.roundTrips.toFixed(2)} ` +
          `Redis round trips (${kv.total.toFixed(2)} commands) — ` +
          `${db.statements.map((s) => `${s.calls.toFixed(2)}× ${s.query}`).join(' | ')}`,
      );
    }
    console.log(
      `\n${new Date().toISOString().slice(0, 10)}, ${count} of each, one production instance, ` +
        `PostgreSQL ${(await sql`show server_version`)[0]!.server_version} and Redis of its own, ` +
        `Node ${process.version}\n`,
    );
    for (const line of lines) console.log(`- ${line}`);
  } finally {
    redis.disconnect();
    await sql.end();
    await instance.stop();
    await kv.close();
    await pg.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
