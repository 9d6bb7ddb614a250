// What a benchmarked instance runs with in `npm run bench` and `npm run bench:builds`: production
// settings on the local chain, PostgreSQL and Redis with the rate limits raised, the seeded
// database, and what the scenarios need from its data.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { issueToken } from '../../lib/auth/tokens';
import { hashSecret, newSecret } from '../../lib/oauth/grants';
import type { LocalChain } from '../../lib/chain/local-chain';
import type { Config } from '../../lib/config';
import { chainSettings } from '../../tests/support/production-server';
import { seed, seededWallet } from './seed';
import { freshDatabase } from './server';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The database BENCH_DATABASE_NAME (default taskmarket_bench): with BENCH_REUSE=1 the one an
 * earlier run seeded, else created empty and seeded by `seeded()` once an instance has migrated it.
 */
export async function benchDatabase() {
  const name = process.env.BENCH_DATABASE_NAME ?? 'taskmarket_bench';
  const reused = process.env.BENCH_REUSE === '1' ? await seededWallet(adminUrl, name) : undefined;
  const databaseUrl = reused?.databaseUrl ?? (await freshDatabase(adminUrl, name));
  return {
    databaseUrl,
    /** The wallet of the seeded client that `mine=client` lists for. */
    seeded: async (): Promise<{ clientWallet: string }> => {
      if (reused) return reused;
      console.log('seeding 100,000 missions, 5,000 agents …');
      return await seed(databaseUrl);
    },
  };
}

/**
 * An instance's settings on `databaseUrl` and `chain`, but for NEXT_DIST_DIR; instances given the same share secrets.
 */
export function instanceEnv(chain: LocalChain, databaseUrl: string, domain: string) {
  return {
    JWT_SECRET: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    KV_PREFIX: `bench:${Date.now()}:`,
    BASE_CHAIN_ID: String(chain.chainId),
    SIWE_DOMAIN: domain,
    ...chainSettings(chain),
    // The benchmark measures cost, not the limits: every request comes from 127.0.0.1.
    NONCE_RATE_LIMIT_PER_MINUTE: '100000000',
    VERIFY_RATE_LIMIT_PER_MINUTE: '100000000',
    WRITE_RATE_LIMIT_PER_MINUTE: '100000000',
    MCP_RATE_LIMIT_PER_MINUTE: '100000000',
    MCP_MAX_CONCURRENT: '100000',
    // Nor the cap of live nonces: the nonce rows together issue more than 100,000 within a nonce's
    // five minutes, and past the cap a request is a cheap 503 that would flatter its side.
    NONCE_MAX_LIVE: '100000000',
  };
}

/**
 * From the seeded data: tokens for the client, signed with the instances' secret (seeded users
 * never signed in) — a sign-in's, an OAuth access token of a grant made here, and a personal
 * access token — and an OPEN mission. The delegated ones carry the grant check on every request
 * (docs/api.md#grant-bound-tokens).
 */
export async function seededCallers(
  databaseUrl: string,
  jwtSecret: string,
  clientWallet: string,
): Promise<{ clientToken: string; oauthToken: string; personalToken: string; missionId: string }> {
  const sql = postgres(databaseUrl, { max: 1 });
  try {
    const [user] = await sql<
      { id: string; role: 'CLIENT' | 'AGENT' }[]
    >`select id, role from users where wallet_address = ${clientWallet}`;
    const [mission] = await sql<{ id: string }[]>`select id from missions where status = 'OPEN' order by id limit 1`;
    const cfg = { jwtSecret, jwtTtlSeconds: 3600 } as Config;
    const client = { id: user!.id, walletAddress: clientWallet, role: user!.role };
    const clientToken = await issueToken(cfg, client);
    const scopes = ['missions:read', 'missions:work'];
    const [oauth] = await sql<{ id: string }[]>`insert into grants (user_id, kind, client_id, name, scopes, created_at)
      values (${client.id}, 'OAUTH', 'bench-client', 'bench', ${sql.array(scopes)}, now()) returning id`;
    const oauthToken = await issueToken(cfg, client, new Date(), { grantId: oauth!.id, scope: scopes.join(' ') });
    const personalToken = newSecret('tm_');
    await sql`insert into grants (user_id, kind, name, scopes, token_hash, token_hint, created_at, expires_at)
      values (${client.id}, 'TOKEN', 'bench', ${sql.array(scopes)}, ${hashSecret(personalToken)},
        ${personalToken.slice(0, 7)}, now(), now() + interval '1 day')`;
    return { clientToken, oauthToken, personalToken, missionId: mission!.id };
  } finally {
    await sql.end();
  }
}
