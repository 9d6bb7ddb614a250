// `npm run bench:fanout` (docs/performance.md#webhook-fan-out): one mission.created to
// FANOUT_ENDPOINTS subscribed endpoints (receivers on loopback), delivered by the production build —
// two instances on PostgreSQL + Redis (FANOUT_STACK=pg, the default: 10,000 endpoints within 60 s),
// or one on the embedded default (FANOUT_STACK=pglite: 1,500 endpoints). Meanwhile posting goes on
// at a steady pace in a category nobody subscribes to; its median while the fan-out is delivered is
// held against its median with no delivery under way, measured in the same run before and after
// (bound: 1.2× on pg, 1.5× on pglite). Prints one verdict line and exits 1 when a bound is missed.
//
//   FANOUT_STACK=pg|pglite  FANOUT_ENDPOINTS (10000 | 1500)  FANOUT_WITHIN_S (60)
//   FANOUT_QUIET_POSTS (30: posts measured before, and again after)  FANOUT_GAP_MS (200: between posts)
//   FANOUT_DIST_DIR (.next: the build the instances run)  FANOUT_PER_SECOND (the instances' WEBHOOK_FANOUT_PER_SECOND)
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { freePort } from '../../lib/chain/anvil-node';
import { CRON_SECRET, SIWE_DOMAIN } from '../../tests/support/faults/instances';
import { type ProductionServer, startProductionServer } from '../../tests/support/production-server';
import { createClient } from '../../sdk/src/index';
import { balancer } from '../soak/balancer';
import { ensureBuild, freshDatabase } from './server';

const stack = process.env.FANOUT_STACK === 'pglite' ? 'pglite' : 'pg';
const endpoints = Number(process.env.FANOUT_ENDPOINTS ?? (stack === 'pg' ? 10_000 : 1_500));
const withinS = Number(process.env.FANOUT_WITHIN_S ?? 60);
const quietPosts = Number(process.env.FANOUT_QUIET_POSTS ?? 30);
const gapMs = Number(process.env.FANOUT_GAP_MS ?? 200);
const bound = stack === 'pg' ? 1.2 : 1.5;
const distDir = process.env.FANOUT_DIST_DIR;
const adminUrl = process.env.FANOUT_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.FANOUT_REDIS_URL ?? 'redis://127.0.0.1:6379/6';
const PUBLIC_ORIGIN = `http://${SIWE_DOMAIN}`;
const FAN = 'fanout-bench';
const QUIET = 'quiet-bench';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2 : NaN;
};

/** The loopback receivers, started in a process of their own (fanout-receiver.ts). */
async function receivers() {
  const child = spawn(join(process.cwd(), 'node_modules', '.bin', 'tsx'), ['scripts/bench/fanout-receiver.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the receiver exited (${code})`)));
    child.stdout!.once('data', (line: Buffer) => resolve((JSON.parse(line.toString()) as { port: number }).port));
  });
  const base = `http://127.0.0.1:${port}`;
  let stats = { received: 0, lastAt: 0 };
  return {
    url: `${base}/hook`,
    /** Reads the receiver's count: call before received() and lastAt(). */
    refresh: async () => {
      stats = (await (await fetch(`${base}/stats`)).json()) as typeof stats;
    },
    received: () => stats.received,
    lastAt: () => stats.lastAt,
    close: async () => {
      child.kill();
    },
  };
}

/**
 * `n` users with ten endpoints each on mission.created in FAN, written straight to the tables (the API
 * holds a user to ten).
 */
async function seedEndpoints(env: Record<string, string>, url: string, n: number) {
  Object.assign(process.env, env);
  const { config } = await import('../../lib/config');
  const { getDb, closeDb } = await import('../../lib/db/client');
  const { users, webhookEndpoints } = await import('../../lib/db/schema');
  const { newWebhookSecret, sealSecret } = await import('../../lib/webhooks/secrets');
  const db = await getDb();
  const sealedSecret = sealSecret(config(), newWebhookSecret());
  for (let at = 0; at < n; at += 1_000) {
    const size = Math.min(1_000, n - at);
    const owners = await db
      .insert(users)
      .values(
        Array.from({ length: Math.ceil(size / 10) }, () => ({
          walletAddress: privateKeyToAccount(generatePrivateKey()).address.toLowerCase(),
        })),
      )
      .returning({ id: users.id });
    await db.insert(webhookEndpoints).values(
      Array.from({ length: size }, (_, i) => ({
        userId: owners[Math.floor(i / 10)]!.id,
        url: `${url}?n=${at + i}`,
        events: ['mission.created'],
        filter: { category: FAN },
        sealedSecret,
        createdAt: new Date(),
      })),
    );
  }
  await closeDb();
}

async function main() {
  if (!distDir) ensureBuild();
  const receiver = await receivers();
  const dataDirs = [
    mkdtempSync(join(tmpdir(), 'taskmarket-fanout-')),
    mkdtempSync(join(tmpdir(), 'taskmarket-fanout-')),
  ];
  const env: Record<string, string> = {
    JWT_SECRET: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    SIWE_DOMAIN,
    CRON_SECRET,
    BASE_CHAIN_ID: '31337',
    TRUST_PROXY: '1',
    WEBHOOK_ALLOW_PRIVATE: '1',
    WRITE_RATE_LIMIT_PER_MINUTE: '100000',
    ...(distDir && { NEXT_DIST_DIR: distDir }),
    // FANOUT_PER_SECOND: the instances' WEBHOOK_FANOUT_PER_SECOND (their default, 200, without it).
    ...(process.env.FANOUT_PER_SECOND && { WEBHOOK_FANOUT_PER_SECOND: process.env.FANOUT_PER_SECOND }),
    // FANOUT_NODE_OPTIONS, e.g. '--cpu-prof --cpu-prof-dir=/tmp/fanout-prof': a profile of each instance.
    ...(process.env.FANOUT_NODE_OPTIONS && { NODE_OPTIONS: process.env.FANOUT_NODE_OPTIONS }),
    ...(stack === 'pg'
      ? {
          DATABASE_URL: await freshDatabase(adminUrl, 'bench_fanout'),
          REDIS_URL: redisUrl,
          KV_PREFIX: `fanout:${Date.now()}:`,
        }
      : { SINGLE_INSTANCE: '1', DATA_DIR: dataDirs[0]! }),
  };
  console.log(`seeding ${endpoints} endpoints (${stack}) …`);
  await seedEndpoints(env, receiver.url, endpoints);
  const instances: ProductionServer[] = [];
  try {
    for (const dataDir of stack === 'pg' ? dataDirs : dataDirs.slice(0, 1))
      instances.push(await startProductionServer({ port: await freePort(), dataDir, env, timeoutMs: 120_000 }));
    const lb = balancer(instances.map((i) => i.url));
    // A client posts at most 20 missions an hour: enough of them for every post of the run.
    const posts = 3 * quietPosts + Math.ceil((withinS * 2_000) / gapMs) + 10;
    const clients = await Promise.all(
      Array.from({ length: Math.ceil(posts / 19) }, async (_, i) => {
        const tm = createClient({
          baseUrl: PUBLIC_ORIGIN,
          account: privateKeyToAccount(generatePrivateKey()),
          maxRetries: 0,
          fetch: lb.fetchFor(`10.7.${i >> 8}.${i & 255}`),
        });
        await tm.signIn();
        return tm;
      }),
    );
    let posted = 0;
    const post = async (category: string) => {
      const tm = clients[Math.floor(posted++ / 19)]!;
      const started = performance.now();
      const mission = await tm.missions.create({
        title: `Fan-out bench ${posted}`,
        description: 'A mission of the fan-out benchmark.',
        category,
        tags: ['bench'],
        reward: '1000000',
        deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      });
      return { ms: performance.now() - started, id: mission.id };
    };
    const quiet = async (n: number) => {
      const ms: number[] = [];
      for (let i = 0; i < n; i++) {
        ms.push((await post(QUIET)).ms);
        await sleep(gapMs);
      }
      return ms;
    };
    // Warm-up: the first posts of each instance run slower (compiled routes, prepared statements); five
    // left the posts before at ~2× the ones after, which inflated `none` and flattered the ratio.
    await quiet(quietPosts);
    const before = await quiet(quietPosts);

    // The fan-out: one post in FAN, then the same steady posting until every endpoint has it.
    const fanStarted = Date.now();
    const fan = await post(FAN);
    const during: number[] = [];
    const giveUp = fanStarted + Math.max(2 * withinS, 120) * 1000;
    while (receiver.received() < endpoints && Date.now() < giveUp) {
      during.push((await post(QUIET)).ms);
      await sleep(gapMs);
      await receiver.refresh();
    }
    const deliveredS = (receiver.lastAt() - fanStarted) / 1000;
    const after = await quiet(quietPosts);

    const none = median([...before, ...after]);
    const ratio = median(during) / none;
    const all = receiver.received() === endpoints;
    const pass = all && deliveredS <= withinS && ratio <= bound;
    console.log(
      `posting with no subscriber: median ${median(before).toFixed(1)} ms before, ${median(after).toFixed(1)} after ` +
        `(${before.length} + ${after.length} posts); the fan-out's own post ${fan.ms.toFixed(1)} ms`,
    );
    console.log(
      `FANOUT ${pass ? 'PASS' : 'FAIL'} (${stack}, ${instances.length} instance${instances.length > 1 ? 's' : ''}): ` +
        `${receiver.received()}/${endpoints} delivered in ${deliveredS.toFixed(1)} s (bound ${withinS} s); ` +
        `posting's median during it ${median(during).toFixed(1)} ms over ${during.length} posts = ` +
        `${ratio.toFixed(2)}× of none (bound ${bound}×)`,
    );
    process.exitCode = pass ? 0 : 1;
  } finally {
    await Promise.all(instances.map((i) => i.stop()));
    await receiver.close();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
