// `npm run bench:floors`: what Next.js and the round trips every endpoint needs cost on this
// machine, as ratios to the empty route — the ceiling an endpoint doing that much can reach. The
// routes are the benchmark build's (scripts/bench/bench-routes.ts, built into .next-bench/bench,
// which `npm run bench` and `npm run bench:peer` share); `.next` is left alone.
import { buildBenchRoutes } from './bench-routes';
import { measureAgainstEmpty, type Scenario } from './measure';
import { seededWallet } from './seed';
import { startInstance } from './server';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);

async function main() {
  const seeded = await seededWallet(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  if (!seeded) throw new Error('run `npm run bench` once first: it seeds the benchmark database');
  const distDir = buildBenchRoutes();
  const instance = await startInstance(3901, {
    NEXT_DIST_DIR: distDir,
    DATABASE_URL: seeded.databaseUrl,
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    SIWE_DOMAIN: 'localhost:3901',
    BASE_CHAIN_ID: '31337',
  });
  try {
    const body = JSON.stringify({ address: `0x${'ab'.repeat(20)}` });
    const scenarios: Scenario[] = [
      { name: 'POST, reading a small JSON body', method: 'POST', path: '/api/bench-floor/post-body', body },
      { name: 'GET, one KV read (Redis GET)', path: '/api/bench-floor/kv' },
      { name: 'GET, one database read (select 1)', path: '/api/bench-floor/db' },
      { name: 'GET, one KV read and one database read, together', path: '/api/bench-floor/kv-and-db' },
      { name: 'GET, answering 14 KB of JSON (a page of 20 missions)', path: '/api/bench-floor/page' },
      { name: 'GET, one database read of 14 KB, answered', path: '/api/bench-floor/db-page' },
    ];
    console.log(await measureAgainstEmpty(instance.url, scenarios, seconds, connections));
  } finally {
    await instance.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
