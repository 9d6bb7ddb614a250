// `npm run bench:libraries`: each hand-written replacement of a library, measured end to end
// against the library swapped back in. Each variant is the app built with one module rewritten
// (app-build.ts, into .next-bench/<variant>); ours is the benchmark build. Both run at once on the
// same seeded PostgreSQL and Redis, and each endpoint is measured alternately on the two
// (compare.ts), with each instance's CPU per request. BENCH_ONLY=text keeps the variants whose name contains it;
// BENCH_REPEATS (default
// 4), BENCH_SECONDS (10), BENCH_CONNECTIONS (20) tune it; BENCH_REUSE_BUILD=1 reuses the builds.
import { readFileSync } from 'node:fs';
import postgres from 'postgres';
import { issueToken } from '../../lib/auth/tokens';
import type { Config } from '../../lib/config';
import { buildBenchApp, replaceOnce, type BenchBuild } from './app-build';
import { buildBenchRoutes } from './bench-routes';
import { checkMcpComparison, toolCall } from './mcp';
import { TURNS } from './measure';
import { compare, comparisonTable, type Comparison } from './compare';
import { seededWallet } from './seed';
import { startInstance } from './server';
import { presignedVerifies, sessionCookie, verifyPool } from './sign-ins';

// 10: each side's time in a round, in BENCH_TURNS turns of whole seconds (measure.ts).
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const repeats = Number(process.env.BENCH_REPEATS ?? 4);
const OURS_PORT = 3910;
const VARIANT_PORT = 3911;
const variantFile = (path: string) => () => readFileSync(path, 'utf8');
// Variants need not pass the type check of the whole project (tests call the hand-written APIs).
const skipTypeCheck = (source: string) =>
  replaceOnce(source, 'poweredByHeader: false,', 'poweredByHeader: false,\n  typescript: { ignoreBuildErrors: true },');

interface Variant {
  /** What is swapped back in, for the table. */
  name: string;
  build: BenchBuild;
  /** The endpoints it changes, measured on ours (a) and on the variant (b). */
  endpoints: (ours: string, variant: string) => Promise<Comparison[]>;
}

// Enough single-use bodies for a round at well above either side's rate; leftovers carry over.
// Single-use verify bodies a round: enough for 2,000 req/s (measure.ts refuses a round that runs out).
const VERIFIES = Number(process.env.BENCH_VERIFIES ?? seconds * 2000);
const verifyComparison =
  (name: string) =>
  async (ours: string, variant: string): Promise<Comparison[]> => [
    {
      name,
      a: {
        base: ours,
        scenario: verifyPool('POST /api/auth/verify', ours, '/api/auth/verify', VERIFIES, {
          noncePath: '/api/auth/nonce',
          domain: `localhost:${OURS_PORT}`,
        }),
      },
      b: {
        base: variant,
        scenario: verifyPool('POST /api/auth/verify', variant, '/api/auth/verify', VERIFIES, {
          noncePath: '/api/auth/nonce',
          domain: `localhost:${VARIANT_PORT}`,
        }),
      },
    },
  ];

const VARIANTS: Variant[] = [
  {
    name: "access tokens: jose's SignJWT over WebCrypto (ours: lib/auth/jwt-hs256.ts)",
    build: {
      name: 'lib-jose-signer',
      rewrites: {
        'next.config.ts': skipTypeCheck,
        'lib/auth/tokens.ts': (s) =>
          replaceOnce(
            replaceOnce(s, "import { jwtVerify } from 'jose';", "import { SignJWT, jwtVerify } from 'jose';"),
            'return signHs256(cfg.jwtSecret, claims);',
            "return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(await " +
              'keyOf(cfg.jwtSecret));',
          ),
      },
    },
    endpoints: verifyComparison('POST /api/auth/verify (signs a token)'),
  },
  {
    name: 'session cookie: iron-session sealData/unsealData (ours: lib/auth/iron-seal.ts)',
    build: {
      name: 'lib-iron-session',
      rewrites: {
        'next.config.ts': skipTypeCheck,
        'lib/auth/session-cookie.ts': variantFile('scripts/bench/library-variants/session-cookie-iron-session.ts'),
        'lib/http/auth-guard.ts': (s) =>
          replaceOnce(s, 'token = readSessionCookie(', 'token = await readSessionCookie('),
        'app/api/auth/verify/route.ts': (s) =>
          replaceOnce(s, "'Set-Cookie': sealSessionCookie(", "'Set-Cookie': await sealSessionCookie("),
        'app/api/auth/register-agent/route.ts': (s) =>
          replaceOnce(s, "'Set-Cookie': sealSessionCookie(", "'Set-Cookie': await sealSessionCookie("),
      },
    },
    endpoints: async (ours, variant) => {
      const cookieOf = async (base: string, port: number) =>
        sessionCookie(
          base,
          '/api/auth/verify',
          (await presignedVerifies(base, 1, { domain: `localhost:${port}` }))[0]!,
        );
      const [ourCookie, theirCookie] = [await cookieOf(ours, OURS_PORT), await cookieOf(variant, VARIANT_PORT)];
      const me = (cookie: string) => () => ({
        name: 'GET /api/auth/me (cookie)',
        path: '/api/auth/me',
        headers: { cookie },
      });
      return [
        {
          name: 'GET /api/auth/me (session cookie: unseal)',
          a: { base: ours, scenario: me(ourCookie) },
          b: { base: variant, scenario: me(theirCookie) },
        },
        ...(await verifyComparison('POST /api/auth/verify (sets the cookie: seal)')(ours, variant)),
      ];
    },
  },
  {
    name: 'SIWE parsing: @spruceid/siwe-parser alone (ours: lib/auth/siwe-canonical.ts in front of it)',
    build: {
      name: 'lib-siwe-parser',
      rewrites: {
        'next.config.ts': skipTypeCheck,
        'lib/auth/siwe-message.ts': (s) =>
          replaceOnce(s, 'matchCanonicalSiwe(message) ?? parseWithReference(message)', 'parseWithReference(message)'),
      },
    },
    endpoints: verifyComparison('POST /api/auth/verify (parses the message)'),
  },
  {
    name: 'mission views: Drizzle select + JS presenter (ours: JSON written by PostgreSQL, lib/board/present.ts)',
    build: {
      name: 'lib-js-presenter',
      rewrites: {
        'next.config.ts': skipTypeCheck,
        'lib/board/list.ts': variantFile('tests/support/mission-list-js.ts'),
      },
    },
    endpoints: async (ours, variant) => {
      const list = (path: string, headers?: Record<string, string>) => () => ({ name: `GET ${path}`, path, headers });
      return [
        {
          name: 'GET /api/missions (default sort)',
          a: { base: ours, scenario: list('/api/missions') },
          b: { base: variant, scenario: list('/api/missions') },
        },
        {
          name: 'GET /api/missions?mine=client',
          a: { base: ours, scenario: list('/api/missions?mine=client', clientHeaders) },
          b: { base: variant, scenario: list('/api/missions?mine=client', clientHeaders) },
        },
      ];
    },
  },
  {
    name: "MCP tools/call: the SDK's Server and transport for every message (ours: lib/mcp/plain-tool-call.ts)",
    build: {
      name: 'lib-mcp-sdk',
      rewrites: {
        'next.config.ts': skipTypeCheck,
        'lib/mcp/serve.ts': (s) =>
          replaceOnce(
            s,
            'const call = plainToolCall(request.headers, body);',
            'const call = undefined as ReturnType<typeof plainToolCall>;',
          ),
      },
    },
    endpoints: async (ours, variant) => {
      const call = () => toolCall('session token', clientHeaders.authorization!);
      const comparison = {
        name: 'POST /api/mcp tools/call find_missions',
        a: { base: ours, scenario: call },
        b: { base: variant, scenario: call },
      };
      // A tool error is answered 200 too: both sides must answer a page.
      await checkMcpComparison(comparison);
      await checkMcpComparison({ ...comparison, a: comparison.b });
      return [comparison];
    },
  },
];

let clientHeaders: Record<string, string> = {};

async function main() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const seeded = await seededWallet(adminUrl);
  if (!seeded) throw new Error('run `npm run bench` once first: it seeds the benchmark database');
  const only = process.env.BENCH_ONLY;
  const chosen = only ? VARIANTS.filter((v) => v.name.includes(only) || v.build.name.includes(only)) : VARIANTS;
  // Every build first, so no build runs while anything is measured.
  const oursDir = buildBenchRoutes();
  const variantDirs = chosen.map((variant) => buildBenchApp(variant.build));

  const jwtSecret = process.env.BENCH_JWT_SECRET ?? crypto.randomUUID().repeat(2);
  const sql = postgres(seeded.databaseUrl, { max: 1 });
  const [client] = await sql<{ id: string }[]>`select id from users where wallet_address = ${seeded.clientWallet}`;
  await sql.end();
  const subject = { id: client!.id, walletAddress: seeded.clientWallet, role: 'CLIENT' } as const;
  clientHeaders = {
    authorization: `Bearer ${await issueToken({ jwtSecret, jwtTtlSeconds: 3600 } as Config, subject)}`,
  };

  const env = (port: number, distDir: string) => ({
    NEXT_DIST_DIR: distDir,
    JWT_SECRET: jwtSecret,
    DATABASE_URL: seeded.databaseUrl,
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    KV_PREFIX: `bench-lib:${port}:${Date.now()}:`,
    SIWE_DOMAIN: `localhost:${port}`,
    BASE_CHAIN_ID: '31337',
    NONCE_RATE_LIMIT_PER_MINUTE: '100000000',
    VERIFY_RATE_LIMIT_PER_MINUTE: '100000000',
    WRITE_RATE_LIMIT_PER_MINUTE: '100000000',
    MCP_RATE_LIMIT_PER_MINUTE: '100000000',
    MCP_MAX_CONCURRENT: '100000',
    NONCE_MAX_LIVE: '100000000',
  });
  const sections: string[] = [];
  const ours = await startInstance(OURS_PORT, env(OURS_PORT, oursDir));
  try {
    for (const [i, variant] of chosen.entries()) {
      console.error(`${variant.name} …`);
      const instance = await startInstance(VARIANT_PORT, env(VARIANT_PORT, variantDirs[i]!));
      try {
        // Both instances' CPU per request too: on a machine shared with other work it moves less than req/s.
        const comparisons = (await variant.endpoints(ours.url, instance.url)).map((c) => ({
          ...c,
          a: { ...c.a, cpuMicros: ours.cpuMicros },
          b: { ...c.b, cpuMicros: instance.cpuMicros },
        }));
        const results = await compare(comparisons, repeats, seconds, connections);
        sections.push(
          `### ${variant.name}\n\n${comparisonTable(results, ['ours req/s', 'library req/s', 'ours/library'])}`,
        );
      } finally {
        await instance.stop();
      }
    }
  } finally {
    await ours.stop();
  }
  console.log(
    `\n${new Date().toISOString().slice(0, 10)}, ${repeats} rounds of ${seconds}s a side, ` +
      `each in ${TURNS} turns alternating, ${connections} connections, Node ` +
      `${process.version}\n`,
  );
  console.log(sections.join('\n\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
