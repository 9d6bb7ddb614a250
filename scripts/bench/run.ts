// `npm run bench`: autocannon against a production build on PostgreSQL + Redis and a local chain. Prints each
// endpoint's throughput as a ratio to an empty route handler and, for nonce, verify, me and the mission list, to its
// own floor route (scripts/bench/bench-routes.ts), all measured in the same run, with p50/p99. It builds the app
// with the floor routes into .next-bench/bench (BENCH_REUSE_BUILD=1 reuses that build). An endpoint with a floor is
// measured in BENCH_FLOOR_ROUNDS (default 2) rounds with it, each round in BENCH_TURNS (default 5) turns alternating
// (measure.ts's measureInTurns). BENCH_SECONDS (default 10, a side's time in a round) and BENCH_CONNECTIONS (default
// 20) tune the run; BENCH_ONLY=text keeps the scenarios whose name contains it (texts separated by commas: any of
// them), BENCH_REUSE=1 keeps an already seeded database, BENCH_DATABASE_NAME (default taskmarket_bench) names it,
// and BENCH_PROFILE=dir writes the instance's V8 CPU profile there (scripts/bench/profile.ts reads it). Then verify
// and the mission list with tracing switched on in the same instance (spans exported to a local OTLP sink) against
// off (docs/api.md#observability); BENCH_TRACING=0 leaves that out, BENCH_ONLY=tracing runs only it,
// BENCH_TRACING=aa leaves tracing off on both sides (an A/A test). The remote MCP pairs (BENCH_ONLY=MCP alone) run
// each side at its most, or at BENCH_MCP_RATE req/s. Two A/A rows, the list floor and the MCP pairs' GET each
// against itself, say what a round resolves.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { type LocalChain, startLocalChain } from '../../lib/chain/local-chain';
import { buildBenchRoutes } from './bench-routes';
import { benchDatabase, instanceEnv, seededCallers } from './instance-env';
import { measureAgainstEmpty, measureTracingCost, type Scenario, TURNS } from './measure';
import { startOtlpSink } from './otlp-sink';
import { compare, comparisonTable } from './compare';
import {
  boundLines,
  checkMcpComparison,
  cpuCostLines,
  listAgainstItself,
  mcpComparisons,
  mcpFloorComparisons,
} from './mcp';
import { endpointScenarios } from './scenarios';
import { post, presignedVerifies, signInAgent } from './sign-ins';
import { type Instance, startInstance } from './server';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const floorRounds = Number(process.env.BENCH_FLOOR_ROUNDS ?? 2);
// BENCH_PORT and BENCH_CHAIN_PORT: another run on this machine holds the defaults.
const PORT = Number(process.env.BENCH_PORT ?? 3900);
const DOMAIN = `localhost:${PORT}`;

async function main() {
  const distDir = buildBenchRoutes();
  const chain = await startLocalChain({ port: Number(process.env.BENCH_CHAIN_PORT ?? 18700) });
  try {
    await bench(chain, distDir);
  } finally {
    await chain.stop();
  }
}

async function bench(chain: LocalChain, distDir: string) {
  const database = await benchDatabase();
  const env = { ...instanceEnv(chain, database.databaseUrl, DOMAIN), NEXT_DIST_DIR: distDir };
  const instance = await startInstance(PORT, env);
  try {
    const base = instance.url;
    const { user: agentUser, token: agentToken } = await signInAgent(base, DOMAIN);
    const only = process.env.BENCH_ONLY;
    const address = privateKeyToAccount(generatePrivateKey()).address;
    const { clientWallet } = await database.seeded();
    const seeded = await seededCallers(database.databaseUrl, env.JWT_SECRET, clientWallet);
    const endpoints = endpointScenarios({
      base,
      domain: DOMAIN,
      // Enough for one measurement of verify at ~1,000 req/s.
      verifiesPerRound: Number(process.env.BENCH_VERIFIES ?? 12000),
      address,
      agentToken,
      ...seeded,
    });
    const { token: personalToken } = await post(
      base,
      '/api/tokens',
      { name: 'bench', scopes: ['missions:read'], expiresIn: 3600 },
      agentToken,
    );

    // Each endpoint's own floor (bench-routes.ts), sent requests of the same shape as the endpoint's.
    const [sample] = await presignedVerifies(base, 1, { domain: DOMAIN });
    const sampleVerify = JSON.parse(sample!) as { message: string; signature: string };
    const floors = {
      nonce: {
        name: 'floor: POST + JSON body + one KV write',
        method: 'POST',
        path: '/api/bench-floor/nonce',
        body: JSON.stringify({ address }),
      },
      nonceObserved: {
        name: 'floor: nonce bound + observed + RateLimit headers',
        method: 'POST',
        path: '/api/bench-floor/nonce-observed',
        body: JSON.stringify({ address }),
      },
      nonceBound: {
        name: 'floor: nonce floor + limit and cap in its KV step',
        method: 'POST',
        path: '/api/bench-floor/nonce-bound',
        body: JSON.stringify({ address }),
      },
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
      verifyJose: {
        name: 'floor: verify crypto bound, its token signed by jose',
        method: 'POST',
        path: '/api/bench-floor/verify-jose',
        body: JSON.stringify({ ...sampleVerify, address: agentUser.walletAddress }),
      },
      me: {
        name: 'floor: GET + bearer + KV read + DB read',
        path: '/api/bench-floor/me',
        headers: { authorization: `Bearer ${agentUser.id}` },
      },
      meBound: {
        name: 'floor: me floor + the passport joined',
        path: '/api/bench-floor/me-bound',
        headers: { authorization: `Bearer ${agentUser.id}` },
      },
      list: { name: 'floor: GET + one DB read of 14 KB, answered', path: '/api/bench-floor/db-page' },
      listRows: { name: 'floor: the page read as its 21 stored rows', path: '/api/bench-floor/list-rows' },
      listRowsStats: {
        name: "floor: the stored rows + the page's client.stats (one statement)",
        path: '/api/bench-floor/list-rows-stats',
      },
      mine: {
        name: 'floor: list floor + the caller (KV read + DB read)',
        path: '/api/bench-floor/mine',
        headers: { authorization: `Bearer ${agentUser.id}` },
      },
    } satisfies Record<string, Scenario>;

    const scenarios: Scenario[] = [
      { ...endpoints.nonce, floor: floors.nonce, target: 0.95 },
      // Not an endpoint: the floor with the limit and the cap every nonce must keep, against the floor;
      // then the endpoint against that bound (how much of what is left is ours).
      {
        ...floors.nonceBound,
        name: 'nonce floor with the limit and the cap (bound for any nonce)',
        floor: floors.nonce,
      },
      { ...endpoints.nonce, name: 'POST /api/auth/nonce against its bound', floor: floors.nonceBound },
      // Not an endpoint: the bound with what the API asks of every answer (observed, RateLimit-* headers), against the
      // bound.
      {
        ...floors.nonceObserved,
        name: 'nonce bound observed, with its headers (what every answer adds)',
        floor: floors.nonceBound,
      },
      { ...endpoints.nonce, name: 'POST /api/auth/nonce against its bound observed', floor: floors.nonceObserved },
      // Issue 26: against the route doing its floor's I/O and the crypto every sign-in must do.
      { ...endpoints.verify, floor: floors.verifyCrypto, target: 0.92 },
      // Not an endpoint: what the floor plus verify's unavoidable crypto reaches, against the floor.
      { ...floors.verifyCrypto, name: 'verify floor with its crypto (bound for any verify)', floor: floors.verify },
      // Not an endpoint: the crypto bound with the token signed by jose, as ours is; then ours against it.
      {
        ...floors.verifyJose,
        name: 'verify crypto bound, token by jose (bound with our token library)',
        floor: floors.verifyCrypto,
      },
      // Its own pool of single-use bodies: measure.ts counts used bodies per scenario object.
      {
        ...endpoints.verify,
        bodies: [],
        name: 'POST /api/auth/verify against its bound with jose',
        floor: floors.verifyJose,
      },
      { ...endpoints.me, floor: floors.me, target: 0.95 },
      { ...floors.meBound, name: 'me floor with the passport (bound for any me)', floor: floors.me },
      { ...endpoints.me, name: 'GET /api/auth/me against its bound', floor: floors.meBound },
      // Delegated tokens, each with the grant check on its path (docs/api.md#grant-bound-tokens).
      { ...endpoints.meOAuth, floor: floors.me },
      { ...endpoints.mePersonal, floor: floors.me },
      endpoints.registerAgain,
      endpoints.health,
      { ...endpoints.missions, floor: floors.list, target: 0.85 },
      { ...floors.listRows, name: 'list floor read as 21 stored rows (bound for any board page)', floor: floors.list },
      { ...endpoints.missions, name: 'GET /api/missions against its bound', floor: floors.listRows },
      // docs/api.md#client-record: the board with client.stats against the board without them (its stored
      // rows alone), then the board against the rows with the stats (what is left that is the board's own).
      {
        ...floors.listRowsStats,
        name: 'client.stats: stored rows with the stats against without (the cost of client.stats)',
        floor: floors.listRows,
      },
      {
        ...endpoints.missions,
        name: 'GET /api/missions against its rows with client.stats',
        floor: floors.listRowsStats,
      },
      { ...endpoints.byReward, floor: floors.list },
      { ...endpoints.search, floor: floors.list },
      { ...endpoints.mine, floor: floors.list, target: 0.75 },
      // Not an endpoint: a signed-in list's unavoidable I/O (the caller, then the page), against the list floor.
      { ...floors.mine, name: 'list floor with the caller (bound for any mine list)', floor: floors.list },
      // Not an endpoint: the list floor against itself, alternated as every pair is — what this run's
      // rounds can resolve (an A/A test): a bar nearer 1 than this row's spread is a coin toss here.
      {
        ...floors.list,
        name: 'GET /api/missions floor against itself (A/A: what the rounds resolve)',
        floor: floors.list,
      },
      endpoints.detail,
      endpoints.leaderboard,
      { ...endpoints.offerings, floor: floors.list },
      { ...endpoints.offeringsByPrice, floor: floors.list },
      { ...endpoints.offeringsSearch, floor: floors.list },
      { ...endpoints.offeringsByRating, floor: floors.list },
      endpoints.leaderboard30d,
      endpoints.publicStats,
      endpoints.publicLeaderboard,
      endpoints.analytics,
      endpoints.analyticsYear,
    ];
    const wanted = only?.split(',');
    const chosen = wanted ? scenarios.filter((s) => wanted.some((text) => s.name.includes(text))) : scenarios;
    if (only !== 'tracing') {
      const table = await measureAgainstEmpty(base, chosen, seconds, connections, floorRounds);
      console.log(
        `\n${new Date().toISOString().slice(0, 10)}, ${seconds}s per endpoint, ${floorRounds} ` +
          `rounds with the floor where there is one (each in ${TURNS} turns alternating), ` +
          `${connections} connections, Node ${process.version}\n`,
      );
      console.log(table);
    }
    if (!only || 'MCP find_missions'.includes(only)) {
      const session = { label: 'session token', token: agentToken };
      const comparisons = mcpComparisons(base, instance.cpuMicros, [
        session,
        { label: 'personal access token', token: personalToken },
        { label: 'OAuth access token', token: seeded.oauthToken },
      ]);
      for (const comparison of comparisons) await checkMcpComparison(comparison);
      comparisons.push(
        listAgainstItself(base, instance.cpuMicros, session),
        ...mcpFloorComparisons(base, instance.cpuMicros, floors.list),
      );
      const results = await compare(comparisons, Math.max(floorRounds, 3), seconds, connections);
      console.log(
        `\nRemote MCP against the GET it wraps, same token, same run (` +
          `${Math.max(floorRounds, 3)} rounds, each in ${TURNS} turns alternating)\n`,
      );
      console.log(comparisonTable(results, ['MCP req/s', 'GET req/s', 'MCP / GET']));
      console.log(`\n${cpuCostLines(results)}\n${boundLines(results)}`);
    }
    if (process.env.BENCH_TRACING !== '0') {
      const traced = scenarios.filter(
        (s) => s.name === 'POST /api/auth/verify' || s.name === 'GET /api/missions (default sort)',
      );
      await benchTracing(instance, traced);
    }
  } finally {
    await instance.stop();
  }
}

/**
 * The same endpoints on the same instance with tracing switched on (every span exported by OTLP to
 * a local sink) and off between measurements (bench-control/tracing). BENCH_TRACING=aa leaves it
 * off on both sides: the method's own spread (an A/A test).
 */
async function benchTracing(instance: Instance, scenarios: Scenario[]) {
  const sink = await startOtlpSink();
  const aa = process.env.BENCH_TRACING === 'aa';
  const setTracing = async (on: boolean) => {
    const response = await fetch(`${instance.url}/api/bench-control/tracing`, {
      method: 'POST',
      body: JSON.stringify(on && !aa ? { endpoint: sink.url } : {}),
    });
    if (!response.ok) throw new Error(`bench-control/tracing: ${response.status}`);
  };
  try {
    const table = await measureTracingCost(instance, setTracing, scenarios, seconds, connections, floorRounds);
    await setTracing(false);
    const { requests, bytes } = await sink.received();
    if (aa) console.log('\nA/A: tracing stays off on both sides');
    console.log(
      `\nTracing on (every span exported by OTLP/HTTP to a local sink: ${requests} exports, ` +
        `${(bytes / 1e6).toFixed(1)} MB) against off, the same instance switched between ` +
        `measurements, ${floorRounds} rounds\n`,
    );
    console.log(table);
  } finally {
    await sink.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
