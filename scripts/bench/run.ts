// `npm run bench`: autocannon against a production build on PostgreSQL + Redis and a local chain.
// Prints each endpoint's throughput as a ratio to an empty route handler and, for nonce, verify, me
// and the mission list, to its own floor route (scripts/bench/bench-routes.ts), all measured in the
// same run, with p50/p99. It builds the app with the floor routes into .next-bench/bench
// (BENCH_REUSE_BUILD=1 reuses that build). An endpoint with a floor is measured in BENCH_FLOOR_ROUNDS
// (default 2) rounds alternating with it. BENCH_SECONDS (default 10) and BENCH_CONNECTIONS (default 20) tune the run;
// BENCH_ONLY=text keeps the scenarios whose name contains it, BENCH_REUSE=1 keeps an already seeded
// database, BENCH_DATABASE_NAME (default taskmarket_bench) names it, and BENCH_PROFILE=dir writes the instance's V8 CPU profile there (scripts/bench/profile.ts reads it).
// Then verify and the mission list against a second instance exporting spans to a local OTLP sink,
// as ratios to the first (docs/api.md#observability); BENCH_TRACING=0 leaves that out, BENCH_ONLY=tracing runs only it.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startLocalChain } from '../../lib/chain/local-chain';
import { issueToken } from '../../lib/auth/tokens';
import type { Config } from '../../lib/config';
import { buildBenchRoutes } from './bench-routes';
import { measureAgainstEmpty, measureTracingCost, type Scenario } from './measure';
import { startOtlpSink } from './otlp-sink';
import { compare, comparisonTable } from './compare';
import { checkMcpComparison, cpuCostLines, mcpComparisons } from './mcp';
import { seed, seededWallet } from './seed';
import { post, presignedVerifies, topUp } from './sign-ins';
import { freshDatabase, type Instance, startInstance } from './server';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const floorRounds = Number(process.env.BENCH_FLOOR_ROUNDS ?? 2);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const databaseName = process.env.BENCH_DATABASE_NAME ?? 'taskmarket_bench';
// BENCH_PORT and BENCH_CHAIN_PORT: another run on this machine holds the defaults.
const PORT = Number(process.env.BENCH_PORT ?? 3900);
const DOMAIN = `localhost:${PORT}`;

const yearAgo = () => new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);

/** A token for a seeded user, signed with the instance's secret (seeded users never signed in). */
async function tokenFor(databaseUrl: string, jwtSecret: string, wallet: string): Promise<string> {
  const sql = postgres(databaseUrl, { max: 1 });
  const [user] = await sql<{ id: string; role: 'CLIENT' | 'AGENT' }[]>`select id, role from users where wallet_address = ${wallet}`;
  await sql.end();
  return await issueToken({ jwtSecret, jwtTtlSeconds: 3600 } as Config, { id: user!.id, walletAddress: wallet, role: user!.role });
}

async function main() {
  const distDir = buildBenchRoutes();
  const chain = await startLocalChain({ port: Number(process.env.BENCH_CHAIN_PORT ?? 18700) });
  try {
    await bench(chain, distDir);
  } finally {
    await chain.stop();
  }
}

async function bench(chain: Awaited<ReturnType<typeof startLocalChain>>, distDir: string) {
  const reuse = process.env.BENCH_REUSE === '1' && (await seededWallet(adminUrl, databaseName));
  const databaseUrl = reuse ? reuse.databaseUrl : await freshDatabase(adminUrl, databaseName);
  const jwtSecret = randomBytes(32).toString('hex');
  const env = {
    NEXT_DIST_DIR: distDir,
    JWT_SECRET: jwtSecret,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    KV_PREFIX: `bench:${Date.now()}:`,
    BASE_CHAIN_ID: String(chain.chainId),
    SIWE_DOMAIN: DOMAIN,
    RPC_URL: chain.rpcUrl,
    REGISTRAR_PRIVATE_KEY: chain.registrarKey,
    PASSPORT_ADDRESS: chain.contracts.passport,
    ESCROW_ADDRESS: chain.contracts.escrow,
    REWARD_TOKEN_ADDRESS: chain.contracts.rewardToken,
    // The benchmark measures cost, not the limits: every request comes from 127.0.0.1.
    NONCE_RATE_LIMIT_PER_MINUTE: '100000000',
    VERIFY_RATE_LIMIT_PER_MINUTE: '100000000',
    WRITE_RATE_LIMIT_PER_MINUTE: '100000000',
  };
  const instance = await startInstance(PORT, env);
  try {
    const base = instance.url;
    const [{ token: agentToken, user: agentUser }] = await presignedVerifies(base, 1, { domain: DOMAIN }).then((b) => Promise.all(b.map((body) => post(base, '/api/auth/verify', JSON.parse(body)))));
    const agent = await post(base, '/api/auth/register-agent', undefined, agentToken);
    const only = process.env.BENCH_ONLY;
    // Signed before each measurement of verify (nonces live five minutes), enough for one at ~1,000 req/s.
    const verifyBodies: string[] = [];
    const perRound = Number(process.env.BENCH_VERIFIES ?? 12000);
    const address = privateKeyToAccount(generatePrivateKey()).address;
    if (!reuse) console.log('seeding 100,000 missions, 5,000 agents …');
    const { clientWallet } = reuse || (await seed(databaseUrl));
    const clientToken = await tokenFor(databaseUrl, jwtSecret, clientWallet);
    const client = { authorization: `Bearer ${clientToken}` };
    const { token: personalToken } = await post(base, '/api/tokens', { name: 'bench', scopes: ['missions:read'], expiresIn: 3600 }, agent.token);

    // Each endpoint's own floor (bench-routes.ts), sent requests of the same shape as the endpoint's.
    const [sample] = await presignedVerifies(base, 1, { domain: DOMAIN });
    const sampleVerify = JSON.parse(sample!) as { message: string; signature: string };
    const floors = {
      nonce: { name: 'floor: POST + JSON body + one KV write', method: 'POST', path: '/api/bench-floor/nonce', body: JSON.stringify({ address }) },
      verify: {
        name: 'floor: POST + JSON body + KV take + DB read',
        method: 'POST',
        path: '/api/bench-floor/verify',
        body: JSON.stringify({ ...sampleVerify, address: agentUser.walletAddress }),
      },
      verifyCrypto: {
        name: 'floor: verify floor + hash, recovery, token, seal',
        method: 'POST',
        path: '/api/bench-floor/verify-crypto',
        body: JSON.stringify({ ...sampleVerify, address: agentUser.walletAddress }),
      },
      me: { name: 'floor: GET + bearer + KV read + DB read', path: '/api/bench-floor/me', headers: { authorization: `Bearer ${agentUser.id}` } },
      list: { name: 'floor: GET + one DB read of 14 KB, answered', path: '/api/bench-floor/db-page' },
      mine: { name: 'floor: list floor + the caller (KV read + DB read)', path: '/api/bench-floor/mine', headers: { authorization: `Bearer ${agentUser.id}` } },
    } satisfies Record<string, Scenario>;

    const scenarios: Scenario[] = [
      { name: 'POST /api/auth/nonce', method: 'POST', path: '/api/auth/nonce', body: JSON.stringify({ address }), floor: floors.nonce, target: 0.95 },
      {
        name: 'POST /api/auth/verify',
        method: 'POST',
        path: '/api/auth/verify',
        bodies: verifyBodies,
        prepare() {
          return topUp(this as Scenario & { bodies: string[] }, base, perRound, { noncePath: '/api/auth/nonce', domain: DOMAIN });
        },
        // Issue 26: against the route doing its floor's I/O and the crypto every sign-in must do.
        floor: floors.verifyCrypto,
        target: 0.92,
      },
      // Not an endpoint: what the floor plus verify's unavoidable crypto reaches, against the floor.
      { ...floors.verifyCrypto, name: 'verify floor with its crypto (bound for any verify)', floor: floors.verify },
      { name: 'GET /api/auth/me', path: '/api/auth/me', headers: { authorization: `Bearer ${agent.token}` }, floor: floors.me, target: 0.95 },
      { name: 'POST /api/auth/register-agent (again)', method: 'POST', path: '/api/auth/register-agent', headers: { authorization: `Bearer ${agent.token}` } },
      { name: 'GET /api/health', path: '/api/health' },
      { name: 'GET /api/missions (default sort)', path: '/api/missions', floor: floors.list, target: 0.85 },
      { name: 'GET /api/missions?category=code&sort=reward', path: '/api/missions?category=code&sort=reward', floor: floors.list },
      { name: 'GET /api/missions?q=translate', path: '/api/missions?q=translate', floor: floors.list },
      { name: 'GET /api/missions?mine=client', path: '/api/missions?mine=client', headers: client, floor: floors.list, target: 0.75 },
      // Not an endpoint: a signed-in list's unavoidable I/O (the caller, then the page), against the list floor.
      { ...floors.mine, name: 'list floor with the caller (bound for any mine list)', floor: floors.list },
      { name: 'GET /api/agents/leaderboard', path: '/api/agents/leaderboard' },
      { name: 'GET /api/agents/leaderboard?period=30d&sort=completed', path: '/api/agents/leaderboard?period=30d&sort=completed' },
      { name: 'GET /api/public/stats', path: '/api/public/stats' },
      { name: 'GET /api/public/leaderboard', path: '/api/public/leaderboard' },
      { name: 'GET /api/enterprise/analytics (30 days)', path: '/api/enterprise/analytics', headers: client },
      { name: 'GET /api/enterprise/analytics (a year, weekly)', path: `/api/enterprise/analytics?from=${yearAgo()}&interval=week`, headers: client },
    ];
    const chosen = only ? scenarios.filter((s) => s.name.includes(only)) : scenarios;
    if (only !== 'tracing') {
      const table = await measureAgainstEmpty(base, chosen, seconds, connections, floorRounds);
      console.log(`\n${new Date().toISOString().slice(0, 10)}, ${seconds}s per endpoint, ${floorRounds} rounds alternating with the floor where there is one, ${connections} connections, Node ${process.version}\n`);
      console.log(table);
    }
    if (!only || 'MCP find_missions'.includes(only)) {
      const comparisons = mcpComparisons(base, instance.cpuMicros, [
        { label: 'session token', token: agent.token },
        { label: 'personal access token', token: personalToken },
      ]);
      for (const comparison of comparisons) await checkMcpComparison(comparison);
      const results = await compare(comparisons, Math.max(floorRounds, 3), seconds, connections);
      console.log(`\nRemote MCP against the GET it wraps, same token, same run (${Math.max(floorRounds, 3)} rounds alternating)\n`);
      console.log(comparisonTable(results, ['MCP req/s', 'GET req/s', 'MCP / GET']));
      console.log(`\n${cpuCostLines(results)}`);
    }
    if (process.env.BENCH_TRACING !== '0') {
      const traced = scenarios.filter((s) => s.name === 'POST /api/auth/verify' || s.name === 'GET /api/missions (default sort)');
      await benchTracing(env, instance, traced);
    }
  } finally {
    await instance.stop();
  }
}

/** The same endpoints on a second instance of the same build and data, exporting every span by OTLP. */
async function benchTracing(env: Record<string, string>, untraced: Instance, scenarios: Scenario[]) {
  const sink = await startOtlpSink();
  const traced = await startInstance(PORT + 1, { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url });
  try {
    const table = await measureTracingCost(untraced, traced, scenarios, seconds, connections, floorRounds);
    const { requests, bytes } = await sink.received();
    console.log(`\nTracing on (every span exported by OTLP/HTTP to a local sink: ${requests} exports, ${(bytes / 1e6).toFixed(1)} MB) against off, same build and data, ${floorRounds} rounds\n`);
    console.log(table);
  } finally {
    await traced.stop();
    await sink.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
