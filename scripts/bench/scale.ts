// `npm run bench:scale`: the mission list and its search on 10k, 100k and 1M missions (issue #16).
// For each size a database seeded in FULL's proportions (scripts/bench/seed.ts) and a production
// instance, all running at once; autocannon on the list's main shapes, the sizes back to back in
// each; the table gives p50/p99/req/s per size and each 1M figure against the 10k one (target:
// within 25 %), as ranges over the rounds. Then EXPLAIN (ANALYZE, BUFFERS) of
// every list statement shape at the largest size, as the app runs it, written to
// .bench/plans/missions-list-<size>.txt; a sequential scan on missions fails the run.
//
// SCALE_SECONDS (default 10), SCALE_CONNECTIONS (default 20) and SCALE_ROUNDS (default 2) tune the
// run, SCALE_SIZES=10k,1m picks sizes, SCALE_REUSE=1 keeps databases already seeded at their size
// (taskmarket_scale_<size>), SCALE_STEPS=http,statements,plans picks the steps: the HTTP measurement, the table of each
// list shape's time per page (one call at a time, at each size), and the plans.
import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { issueToken } from '../../lib/auth/tokens';
import type { Config } from '../../lib/config';
import { encodeCursor } from '../../lib/board/cursor';
import { EMPTY, type Measurement, measure, type Scenario } from './measure';
import { type ShapeTime, timeShapes, writePlans } from './scale-plans';
import { scaledSize, seed } from './seed';
import { ensureBuild, startInstance } from './server';

const seconds = Number(process.env.SCALE_SECONDS ?? 10);
const connections = Number(process.env.SCALE_CONNECTIONS ?? 20);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PORT = 4100; // and up, one port a size
const SIZES: Record<string, number> = { '10k': 10_000, '100k': 100_000, '1m': 1_000_000 };
const chosenSizes = (process.env.SCALE_SIZES ?? '10k,100k,1m').split(',').map((s) => s.trim().toLowerCase());
const steps = new Set((process.env.SCALE_STEPS ?? 'http,statements,plans').split(',').map((s) => s.trim()));
const rounds = Number(process.env.SCALE_ROUNDS ?? 2);

// An OPEN mission's number in its title at every size: a search term with exactly one match.
const RARE_TERM = '4321';
const COMMON_TERM = 'translate';

const urlOf = (name: string) => Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();

/** The database of one size, migrated and seeded (or kept, with SCALE_REUSE=1, when it holds that size). */
async function scaleDatabase(size: string, reuse = process.env.SCALE_REUSE === '1'): Promise<string> {
  const missions = SIZES[size];
  if (!missions) throw new Error(`unknown size ${size} (${Object.keys(SIZES).join(', ')})`);
  const name = `taskmarket_scale_${size}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
  let seeded = false;
  if (exists && reuse) {
    const sql = postgres(urlOf(name), { max: 1, onnotice: () => {} });
    const [row] = await sql<{ count: number }[]>`select count(*)::int as count from missions`.catch(() => []);
    seeded = row?.count === missions;
    await sql.end();
  }
  if (!seeded) {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`create database ${name}`);
  }
  await admin.end();
  const sql = postgres(urlOf(name), { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(sql), { migrationsFolder: 'drizzle' });
    if (!seeded) {
      const started = Date.now();
      console.log(`seeding ${name}: ${missions.toLocaleString('en')} missions …`);
      await seed(urlOf(name), scaledSize(missions));
      // What autovacuum would have done by the time a table this size is read: the visibility map.
      await sql`vacuum analyze`;
      console.log(`  seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
  } finally {
    await sql.end();
  }
  return urlOf(name);
}

/** The seeded values the scenarios need: a client, the middle of the board (a deep page). */
async function fixtures(databaseUrl: string) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [client] = await sql<{ id: string; wallet_address: string }[]>`
      select id, wallet_address from users where role = 'CLIENT' order by wallet_address limit 1`;
    const [agent] = await sql<{ id: string; wallet_address: string }[]>`
      select id, wallet_address from users
      where id = (select agent_id from missions where agent_id is not null order by agent_id limit 1)`;
    const [board] = await sql<{ open: number }[]>`select count(*)::int as open from missions where status = 'OPEN'`;
    const middle = Math.floor(board!.open / 2);
    const [bumped] = await sql<{ key: string; id: string }[]>`
      select to_char(listed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key, id from missions
      where status = 'OPEN' order by listed_at desc, id desc offset ${middle} limit 1`;
    const [reward] = await sql<{ key: string; id: string }[]>`
      select reward::text as key, id from missions
      where status = 'OPEN' order by reward desc, id desc offset ${middle} limit 1`;
    return {
      client: client!,
      agent: agent!,
      deepCursor: encodeCursor('bumped', bumped!.key, bumped!.id),
      deepRewardCursor: encodeCursor('reward', reward!.key, reward!.id),
    };
  } finally {
    await sql.end();
  }
}

function scenarios(f: Awaited<ReturnType<typeof fixtures>>, clientToken: string): Scenario[] {
  return [
    EMPTY,
    { name: 'board (default sort)', path: '/api/missions' },
    { name: 'category=code&sort=reward', path: '/api/missions?category=code&sort=reward' },
    { name: 'mine=client', path: '/api/missions?mine=client', headers: { authorization: `Bearer ${clientToken}` } },
    { name: 'deep page (cursor half-way down the board)', path: `/api/missions?cursor=${f.deepCursor}` },
    { name: `q=${COMMON_TERM} (common: 1 mission in 5)`, path: `/api/missions?q=${COMMON_TERM}` },
    { name: `q=${RARE_TERM} (rare: 1 match)`, path: `/api/missions?q=${RARE_TERM}` },
    // Between the two: too rare for the first window, too common for the index of matches alone.
    { name: 'tag=tag7 (middling: 1 mission in 50)', path: '/api/missions?tag=tag7' },
  ];
}

interface SizedInstance {
  size: string;
  url: string;
  scenarios: Scenario[];
  stop(): Promise<void>;
}

/** A production instance on the database of one size, with that size's scenarios. */
async function startSize(size: string, port: number): Promise<SizedInstance> {
  const databaseUrl = await scaleDatabase(size);
  const f = await fixtures(databaseUrl);
  const jwtSecret = randomBytes(32).toString('hex');
  const clientToken = await issueToken({ jwtSecret, jwtTtlSeconds: 3600 } as Config, {
    id: f.client.id,
    walletAddress: f.client.wallet_address,
    role: 'CLIENT',
  });
  const instance = await startInstance(port, {
    JWT_SECRET: jwtSecret,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    KV_PREFIX: `scale:${size}:${Date.now()}:`,
    BASE_CHAIN_ID: '31337',
    SIWE_DOMAIN: `localhost:${port}`,
    NONCE_RATE_LIMIT_PER_MINUTE: '100000000',
    VERIFY_RATE_LIMIT_PER_MINUTE: '100000000',
    WRITE_RATE_LIMIT_PER_MINUTE: '100000000',
    MCP_RATE_LIMIT_PER_MINUTE: '100000000',
    MCP_MAX_CONCURRENT: '100000',
  });
  return { size, url: instance.url, scenarios: scenarios(f, clientToken), stop: instance.stop };
}

/**
 * Every scenario on every size, the sizes back to back within each scenario (in reverse every
 * other round), so the machine's load (shared, and it drifts) weighs on the sizes alike; `rounds`
 * times over. [size][scenario][round].
 */
async function measureSizes(instances: SizedInstance[], rounds: number): Promise<Measurement[][][]> {
  const results = instances.map((instance) => instance.scenarios.map((): Measurement[] => []));
  const count = instances[0]!.scenarios.length;
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < count; i++) {
      // Odd rounds take the sizes in reverse, so none is always measured first.
      const order = instances.map((_, z) => (round % 2 === 0 ? z : instances.length - 1 - z));
      for (const z of order) {
        const instance = instances[z]!;
        const scenario = instance.scenarios[i]!;
        // A warm-up for the JIT, the connection pool, the prepared statements and the buffer cache.
        await measure(instance.url, scenario, 2, connections);
        const row = await measure(instance.url, scenario, seconds, connections);
        if (row.non2xx > 0) throw new Error(`${instance.size} ${scenario.name}: ${row.non2xx} non-2xx answers`);
        console.log(
          `  round ${round + 1}, ${instance.size}, ${scenario.name}: ${row.rps.toFixed(0)} req/s, ` +
            `p50 ${row.p50} ms, p99 ${row.p99} ms`,
        );
        results[z]![i]!.push(row);
      }
    }
  }
  return results;
}

const range = (values: number[], digits = 0) => {
  const [low, high] = [Math.min(...values), Math.max(...values)].map((v) => v.toFixed(digits));
  return low === high ? low! : `${low}–${high}`;
};

/** The scale table: each size's figures (ranges over the rounds), and the largest size's against the smallest's. */
function report(sizes: string[], results: Measurement[][][]): string {
  const first = sizes[0]!;
  const last = sizes.at(-1)!;
  const head = [
    'endpoint',
    ...sizes.map((s) => `${s}: p50 / p99 ms, req/s`),
    `${last} vs ${first}: p50, p99, req/s`,
    'within 25 %',
  ];
  const lines = [`| ${head.join(' | ')} |`, `|---|${sizes.map(() => '---:|').join('')}---:|---|`];
  const signed = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(0)}`;
  const change = (pairs: [number, number][]) => {
    const changes = pairs.map(([a, b]) => (b / a - 1) * 100);
    const [low, high] = [Math.min(...changes), Math.max(...changes)].map(signed);
    return `${low === high ? low : `${low} to ${high}`} %`;
  };
  results[0]!.forEach((rounds, i) => {
    const cells = results.map((bySize) => {
      const r = bySize[i]!;
      return `${range(r.map((m) => m.p50))} / ${range(r.map((m) => m.p99))}, ${range(r.map((m) => m.rps))}`;
    });
    const pairs = rounds.map((a, round) => [a, results.at(-1)![i]![round]!] as const);
    // Latency may not grow, nor throughput fall, by more than 25 %; getting faster is fine.
    const met = pairs.filter(
      ([a, b]) => b.p50 <= a.p50 * 1.25 && b.p99 <= a.p99 * 1.25 && b.rps >= a.rps * 0.75,
    ).length;
    const vs = [
      change(pairs.map(([a, b]) => [a.p50, b.p50])),
      change(pairs.map(([a, b]) => [a.p99, b.p99])),
      change(pairs.map(([a, b]) => [a.rps, b.rps])),
    ];
    lines.push(
      `| ${rounds[0]!.name} | ${cells.join(' | ')} | ${vs.join(', ')} | met in ${met} of ${pairs.length} rounds |`,
    );
  });
  return lines.join('\n');
}

/** The statement table: each shape's time per page at each size, and the largest size's against the smallest's. */
function statementReport(sizes: string[], times: ShapeTime[][]): string {
  const lines = [
    `| list shape | ${sizes.map((s) => `${s}: median / p95 ms`).join(' | ')} | ` +
      `${sizes.at(-1)} vs ${sizes[0]} (median) |`,
    `|---|${sizes.map(() => '---:|').join('')}---:|`,
  ];
  times[0]!.forEach((first, i) => {
    const last = times.at(-1)![i]!;
    const change = (last.median / first.median - 1) * 100;
    const cells = times.map((t) => `${t[i]!.median.toFixed(2)} / ${t[i]!.p95.toFixed(2)}`);
    lines.push(`| ${first.name} | ${cells.join(' | ')} | ${change >= 0 ? '+' : '−'}${Math.abs(change).toFixed(0)} % |`);
  });
  return lines.join('\n');
}

async function main() {
  const sizes = chosenSizes;
  if (steps.has('http')) {
    ensureBuild();
    const instances: SizedInstance[] = [];
    try {
      for (const [i, size] of sizes.entries()) instances.push(await startSize(size, PORT + i));
      const results = await measureSizes(instances, rounds);
      console.log(
        `\n${new Date().toISOString().slice(0, 10)}, ${rounds} rounds, ${seconds} s per ` +
          `endpoint after a 2 s warm-up, ${connections} connections, Node ${process.version}\n`,
      );
      console.log(report(sizes, results));
    } finally {
      for (const instance of instances) await instance.stop();
    }
  }
  if (steps.has('statements')) {
    const times: ShapeTime[][] = [];
    for (const size of sizes) {
      const databaseUrl = await scaleDatabase(size, true);
      times.push(await timeShapes(databaseUrl, await fixtures(databaseUrl), { common: COMMON_TERM, rare: RARE_TERM }));
    }
    console.log(`\nlistMissions one call at a time on one connection, median / p95 ms over 200 calls\n`);
    console.log(statementReport(sizes, times));
  }
  if (steps.has('plans')) {
    const size = sizes.at(-1)!;
    // Seeded a moment ago by the measurement, or by an earlier run.
    const databaseUrl = await scaleDatabase(size, true);
    await writePlans(databaseUrl, size, await fixtures(databaseUrl), { common: COMMON_TERM, rare: RARE_TERM });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
