// `npm run bench:floors`: what Next.js and the round trips every endpoint needs cost on this
// machine, as ratios to the empty route — the ceiling an endpoint doing that much can reach.
// It builds temporary route handlers (removed again before it measures), so it leaves a build that
// `npm run bench` would reuse: run `npm run build` after it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureAgainstEmpty, type Scenario } from './measure';
import { seededWallet } from './seed';
import { startInstance } from './server';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROOT = join('app', 'api', 'bench-floor');
const ok = `Response.json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } })`;
const ROUTES: Record<string, string> = {
  'post-body': `export const POST = async (request: Request) => { await request.json(); return ${ok}; };`,
  kv: `import { getKv } from '@/lib/kv';\nexport const GET = async () => { await getKv().get('floor'); return ${ok}; };`,
  db: `import { sql } from 'drizzle-orm';\nimport { getDb } from '@/lib/db/client';\nexport const GET = async () => { await (await getDb()).execute(sql\`select 1\`); return ${ok}; };`,
  // A page of 20 missions is about 14 KB of JSON: what answering that much costs, and with it read
  // from the database in one statement.
  page: `const page = JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: i, text: 'x'.repeat(700) })), nextCursor: null });\nexport const GET = async () => new Response(page, { headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } });`,
  'db-page': `import { sql } from 'drizzle-orm';\nimport { getDb } from '@/lib/db/client';\nexport const GET = async () => { const rows = (await (await getDb()).execute(sql\`select repeat('x', 14000) as page\`)) as unknown as { page: string }[]; return new Response(JSON.stringify(rows[0]!.page), { headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } }); };`,
  'kv-and-db': `import { sql } from 'drizzle-orm';\nimport { getDb } from '@/lib/db/client';\nimport { getKv } from '@/lib/kv';\nexport const GET = async () => { await Promise.all([getKv().get('floor'), getDb().then((db) => db.execute(sql\`select 1\`))]); return ${ok}; };`,
};

function buildWithFloors(): void {
  try {
    for (const [name, source] of Object.entries(ROUTES)) {
      mkdirSync(join(ROOT, name), { recursive: true });
      writeFileSync(join(ROOT, name, 'route.ts'), `${source}\n`);
    }
    const built = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
    if (built.status !== 0) throw new Error('npm run build failed');
  } finally {
    rmSync(ROOT, { recursive: true, force: true });
  }
}

async function main() {
  const seeded = await seededWallet(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  if (!seeded) throw new Error('run `npm run bench` once first: it seeds the benchmark database');
  buildWithFloors();
  const instance = await startInstance(3901, {
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
