// `npm run bench:peer`: our nonce, verify and me against the SIWE stack as its libraries' own
// documentation shows it (siwe's SiweMessage.verify, iron-session, the nonce in Redis, a Drizzle
// upsert — scripts/bench/bench-routes.ts), and nonce's and me's floors against it (the bound for
// any implementation); all in the same instance on the same PostgreSQL and Redis, with requests of
// the same shape, measured alternately (compare.ts). BENCH_REPEATS (default 3), BENCH_SECONDS (10)
// and BENCH_CONNECTIONS (20) tune it; BENCH_REUSE_BUILD=1 reuses the benchmark build;
// BENCH_DATABASE_NAME (default taskmarket_bench_peer) names its database.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { buildBenchRoutes } from './bench-routes';
import { TURNS } from './measure';
import { compare, comparisonTable } from './compare';
import { freshDatabase, startInstance } from './server';
import { presignedVerifies, sessionCookie, verifyPool } from './sign-ins';

// 10: each side's time in a round, in BENCH_TURNS turns of whole seconds (measure.ts).
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const repeats = Number(process.env.BENCH_REPEATS ?? 3);
const PORT = 3902;
const DOMAIN = `localhost:${PORT}`;

async function main() {
  const distDir = buildBenchRoutes();
  const databaseUrl = await freshDatabase(
    process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    process.env.BENCH_DATABASE_NAME ?? 'taskmarket_bench_peer',
  );
  const instance = await startInstance(PORT, {
    NEXT_DIST_DIR: distDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    KV_PREFIX: `bench-peer:${Date.now()}:`,
    SIWE_DOMAIN: DOMAIN,
    BASE_CHAIN_ID: '31337',
    // The benchmark measures cost, not the limits: every request comes from 127.0.0.1.
    NONCE_RATE_LIMIT_PER_MINUTE: '100000000',
    VERIFY_RATE_LIMIT_PER_MINUTE: '100000000',
  });
  try {
    const base = instance.url;
    const address = privateKeyToAccount(generatePrivateKey()).address;
    const nonceBody = JSON.stringify({ address });
    const ours = { noncePath: '/api/auth/nonce', domain: DOMAIN };
    const peer = { noncePath: '/api/bench-peer/nonce', domain: DOMAIN };
    // Enough single-use bodies for a whole measurement at well above either side's rate (measure.ts
    // refuses a run that ran out): ours reached 1,000 req/s on a quiet machine, the peer a third.
    const verifies = Number(process.env.BENCH_VERIFIES ?? seconds * 2000);
    console.error('signing in once on each side for the cookies …');
    const ourCookie = await sessionCookie(base, '/api/auth/verify', (await presignedVerifies(base, 1, ours))[0]!);
    const peerCookie = await sessionCookie(
      base,
      '/api/bench-peer/verify',
      (await presignedVerifies(base, 1, peer))[0]!,
    );
    // The floor of me names its user in the Authorization header, unchecked: our signed-in user's id.
    const meAnswer = await fetch(`${base}/api/auth/me`, { headers: { cookie: ourCookie } });
    if (!meAnswer.ok) throw new Error(`GET /api/auth/me with our cookie: ${meAnswer.status} ${await meAnswer.text()}`);
    const { user } = (await meAnswer.json()) as { user: { id: string } };
    const cpu = instance.cpuMicros;
    const results = await compare(
      [
        {
          name: 'POST nonce',
          a: {
            base,
            cpuMicros: cpu,
            scenario: () => ({
              name: 'ours: POST /api/auth/nonce',
              method: 'POST',
              path: '/api/auth/nonce',
              body: nonceBody,
            }),
          },
          b: {
            base,
            cpuMicros: cpu,
            scenario: () => ({
              name: 'peer: POST /api/bench-peer/nonce',
              method: 'POST',
              path: '/api/bench-peer/nonce',
              body: nonceBody,
            }),
          },
          // Issue 26: its floor is the peer's own I/O, and ours also counts a limit and a cap in that round trip.
          target: 0.9,
        },
        {
          // The most any nonce could gain on the peer: the floor (POST, body, one KV write) against it.
          name: 'POST nonce: its floor (bound for any implementation)',
          a: {
            base,
            cpuMicros: cpu,
            scenario: () => ({
              name: 'floor: POST /api/bench-floor/nonce',
              method: 'POST',
              path: '/api/bench-floor/nonce',
              body: nonceBody,
            }),
          },
          b: {
            base,
            cpuMicros: cpu,
            scenario: () => ({
              name: 'peer: POST /api/bench-peer/nonce',
              method: 'POST',
              path: '/api/bench-peer/nonce',
              body: nonceBody,
            }),
          },
        },
        {
          name: 'POST verify',
          a: {
            base,
            cpuMicros: cpu,
            scenario: verifyPool('ours: POST /api/auth/verify', base, '/api/auth/verify', verifies, ours),
          },
          b: {
            base,
            cpuMicros: cpu,
            scenario: verifyPool(
              'peer: POST /api/bench-peer/verify',
              base,
              '/api/bench-peer/verify',
              verifies / 3,
              peer,
            ),
          },
          target: 2.5,
        },
        {
          name: 'GET me (session cookie)',
          a: {
            base,
            cpuMicros: cpu,
            scenario: () => ({ name: 'ours: GET /api/auth/me', path: '/api/auth/me', headers: { cookie: ourCookie } }),
          },
          b: {
            base,
            cpuMicros: cpu,
            scenario: () => ({
              name: 'peer: GET /api/bench-peer/me',
              path: '/api/bench-peer/me',
              headers: { cookie: peerCookie },
            }),
          },
          target: 1.2,
        },
        {
          // The most any me could gain on the peer: its floor (the revocation read and the user's row,
          // together; no token, no cookie to unseal) against it. Every me must check revocation in the
          // shared KV (docs/api.md#tokens); the peer reads only the row.
          name: 'GET me: its floor (bound for any implementation)',
          a: {
            base,
            cpuMicros: cpu,
            scenario: () => ({
              name: 'floor: GET /api/bench-floor/me',
              path: '/api/bench-floor/me',
              headers: { authorization: `Bearer ${user.id}` },
            }),
          },
          b: {
            base,
            cpuMicros: cpu,
            scenario: () => ({
              name: 'peer: GET /api/bench-peer/me',
              path: '/api/bench-peer/me',
              headers: { cookie: peerCookie },
            }),
          },
        },
      ],
      repeats,
      seconds,
      connections,
    );
    console.log(
      `\n${new Date().toISOString().slice(0, 10)}, ${repeats} rounds of ${seconds}s a side, ` +
        `each in ${TURNS} turns alternating, ${connections} connections, Node ` +
        `${process.version}\n`,
    );
    console.log(comparisonTable(results, ['ours req/s', 'peer req/s', 'ours/peer']));
  } finally {
    await instance.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
