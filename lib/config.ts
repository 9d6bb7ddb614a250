// The environment, parsed once by zod: the only module that reads process.env.
// Development gets a working default for every setting; production refuses to start without the
// ones that have no safe default (docs/api.md#configuration).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const intFrom = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);
const optionalText = z.string().trim().min(1).optional().catch(undefined);
// A switch: on only when said so ("1" or "true"); "0", "false" or empty leave it off.
const flag = z
  .string()
  .optional()
  .transform((value) => value === '1' || value?.toLowerCase() === 'true');
const hexAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  BASE_CHAIN_ID: z.coerce.number().int().positive().optional(),
  SIWE_DOMAIN: optionalText,
  SIWE_STATEMENT: z.string().default('Sign in to taskmarket with your wallet.'),
  DATABASE_URL: optionalText,
  DATA_DIR: z.string().default('.data'),
  REDIS_URL: optionalText,
  KV_REST_API_URL: optionalText,
  KV_REST_API_TOKEN: optionalText,
  KV_PREFIX: z.string().default('tm:'),
  JWT_SECRET: optionalText,
  SESSION_SECRET: optionalText,
  JWT_TTL_SECONDS: intFrom(3600, 60),
  RPC_URL: optionalText,
  REGISTRAR_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex key')
    .optional(),
  PASSPORT_ADDRESS: hexAddress.optional(),
  ESCROW_ADDRESS: hexAddress.optional(),
  REWARD_TOKEN_ADDRESS: hexAddress.optional(),
  // docs/api.md#erc-8004: the ERC-8004 Identity and Reputation registries (the canonical ones on Base; the local
  // chain's in dev).
  ERC8004_IDENTITY_ADDRESS: hexAddress.optional(),
  ERC8004_REPUTATION_ADDRESS: hexAddress.optional(),
  // docs/api.md#feedback-bounds: the smallest reward (base units) whose settlement gives feedback, and
  // the operator's feedback transactions an hour.
  ERC8004_MIN_FEEDBACK_REWARD: z
    .string()
    .trim()
    .regex(/^\d{1,78}$/, 'must be decimal digits (base units)')
    .default('1000000')
    .transform(BigInt),
  ERC8004_FEEDBACK_BUDGET_PER_HOUR: intFrom(100),
  MINT_WAIT_MS: intFrom(10_000),
  TRUST_PROXY: intFrom(0),
  VERCEL: flag,
  NONCE_MAX_LIVE: intFrom(100_000, 1),
  NONCE_TTL_SECONDS: intFrom(300, 1),
  NONCE_RATE_LIMIT_PER_MINUTE: intFrom(60, 1),
  VERIFY_RATE_LIMIT_PER_MINUTE: intFrom(30, 1),
  WRITE_RATE_LIMIT_PER_MINUTE: intFrom(60, 1),
  REVIEW_WINDOW_SECONDS: intFrom(259_200, 1),
  MAX_CONTESTS: intFrom(2),
  PLATFORM_FEE_BPS: intFrom(0).pipe(z.number().max(10_000)),
  PORT: intFrom(3000, 1),
  CRON_SECRET: optionalText,
  ADMIN_TOKEN: optionalText,
  // Limits, keys and marketplace settings (docs/api.md#limits, #configuration).
  APP_ORIGINS: optionalText,
  SINGLE_INSTANCE: flag,
  DOWNLOAD_RATE_LIMIT_PER_MINUTE: intFrom(120, 1),
  OPERATOR_RATE_LIMIT_PER_MINUTE: intFrom(10, 1),
  COMMENT_RATE_LIMIT_PER_MINUTE: intFrom(10, 1),
  FUNDING_READ_RATE_LIMIT_PER_MINUTE: intFrom(120, 1),
  MAX_ACTIVE_MISSIONS: intFrom(3, 1),
  ACCEPT_WINDOW_SECONDS: intFrom(172_800, 1),
  // docs/api.md#declining: how long an order's agent may still turn it down once accepted.
  DECLINE_WINDOW_SECONDS: intFrom(86_400, 1),
  MINT_BUDGET_PER_HOUR: intFrom(100),
  OPERATOR_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex key')
    .optional(),
  SETTLEMENT_MAX_ATTEMPTS: intFrom(10, 1),
  // docs/api.md#post-and-pay: the key that relays funding authorizations (default the operator's), its
  // hourly gas budget, and how many unfunded missions one poster may hold at once.
  RELAYER_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex key')
    .optional(),
  // docs/operating.md#keys-run-the-relayer-on-its-own-key: in production the relayer signs only with its
  // own key; this lets it share the operator's (as development does) when one is not set.
  RELAYER_SHARES_OPERATOR_KEY: flag,
  RELAY_BUDGET_PER_HOUR: intFrom(100),
  MAX_UNFUNDED_MISSIONS: intFrom(5, 1),
  // docs/api.md#unfunded-storage: attachment bytes unfunded missions may hold, per poster and in all.
  UNFUNDED_FILES_MAX_BYTES_PER_USER: intFrom(50 * 1024 * 1024),
  UNFUNDED_FILES_MAX_BYTES: intFrom(5 * 1024 * 1024 * 1024),
  RECLAIM_GRACE_SECONDS: intFrom(604_800),
  WEBHOOK_ALLOW_PRIVATE: flag,
  WEBHOOK_RETENTION_DAYS: intFrom(30, 1),
  // docs/api.md#board-subscriptions: live mission.created endpoints past which only passport holders may add one.
  WEBHOOK_BOARD_SUBSCRIPTIONS_MAX: intFrom(10_000, 1),
  // docs/api.md#webhook-fan-out: board sends a second per instance; at least 10, so a claimed batch
  // of 50 is sent well within its 30 s lease.
  WEBHOOK_FANOUT_PER_SECOND: intFrom(200, 10),
  // PEM of a CA that outbound guarded fetches also trust; honoured only with WEBHOOK_ALLOW_PRIVATE (tests).
  WEBHOOK_TEST_CA: optionalText,
  VERCEL_ENV: optionalText,
  VERCEL_URL: optionalText,
  VERCEL_BRANCH_URL: optionalText,
  // Wave 3 (docs/api.md#tokens).
  OAUTH_REGISTRATIONS_PER_HOUR: intFrom(20, 1),
  OAUTH_REGISTRATIONS_GLOBAL_PER_HOUR: intFrom(1000, 1),
  OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE: intFrom(60, 1),
  // Wave 4 (docs/api.md#client-id-metadata-documents).
  OAUTH_CLIENT_DOCUMENT_FETCHES_PER_MINUTE: intFrom(10, 1),
  OAUTH_CLIENT_DOCUMENT_FETCHES_PER_SOURCE_PER_HOUR: intFrom(50, 1),
  OAUTH_CLIENT_DOCUMENT_FETCHES_GLOBAL_PER_HOUR: intFrom(1000, 1),
  // Wave 3: operating it (docs/api.md#observability).
  METRICS_TOKEN: optionalText,
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined)
    .pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  OTEL_EXPORTER_OTLP_HEADERS: optionalText,
  OTEL_SERVICE_NAME: z.string().trim().min(1).default('taskmarket'),
  // Wave 3 (docs/api.md#bounties).
  MAX_BOUNTY_ENTRIES: intFrom(200, 1),
  ENTRY_RATE_LIMIT_PER_MINUTE: intFrom(10, 1),
  // Wave 4 (docs/api.md#limits): remote MCP, per user and per instance.
  MCP_RATE_LIMIT_PER_MINUTE: intFrom(120, 1),
  MCP_MAX_CONCURRENT: intFrom(32, 1),
  // docs/api.md#mcp: browser-based MCP clients' origins, beside the app's own (comma-separated).
  MCP_ALLOWED_ORIGINS: optionalText,
  DISPUTE_ALLOWANCE_SECONDS: intFrom(604_800),
  ESCROW_V2_ADDRESS: hexAddress.optional(),
  ESCROW_V3_ADDRESS: hexAddress.optional(),
  ESCROW_V4_ADDRESS: hexAddress.optional(),
});

export type Env = z.input<typeof envSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Turns an environment into the settings the service runs with; throws ConfigError naming each bad setting. */
export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration — ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const missing: string[] = [];
  if (production) {
    if (e.BASE_CHAIN_ID === undefined) missing.push('BASE_CHAIN_ID is required in production');
    if (!e.SIWE_DOMAIN) missing.push('SIWE_DOMAIN is required in production');
    for (const name of ['JWT_SECRET', 'SESSION_SECRET'] as const) {
      const value = e[name];
      if (!value) missing.push(`${name} is required in production`);
      else if (Buffer.byteLength(value) < 32) missing.push(`${name} must be at least 32 bytes`);
    }
  } else {
    for (const name of ['JWT_SECRET', 'SESSION_SECRET'] as const) {
      const value = e[name];
      if (value && Buffer.byteLength(value) < 32) missing.push(`${name} must be at least 32 bytes`);
    }
  }
  if (e.KV_REST_API_URL && !e.KV_REST_API_TOKEN) missing.push('KV_REST_API_TOKEN is required with KV_REST_API_URL');
  // docs/api.md#observability: the metrics name routes and volumes; a new secret, so held to the length everywhere.
  if (e.METRICS_TOKEN && e.METRICS_TOKEN.length < 32) missing.push('METRICS_TOKEN must be at least 32 characters');
  const otlpHeaders = parseOtlpHeaders(e.OTEL_EXPORTER_OTLP_HEADERS);
  if (!otlpHeaders) missing.push('OTEL_EXPORTER_OTLP_HEADERS must be comma-separated name=value pairs');
  const onVercel = e.VERCEL;
  const sharedKv = Boolean(e.REDIS_URL || (e.KV_REST_API_URL && e.KV_REST_API_TOKEN));
  if (production) {
    // docs/api.md#operator-secrets: a short operator secret can be guessed; failures are also rate limited per IP.
    for (const name of ['ADMIN_TOKEN', 'CRON_SECRET'] as const) {
      const value = e[name];
      if (value && value.length < 32) missing.push(`${name} must be at least 32 characters`);
    }
    // docs/api.md#configuration: nonces, limits and revocations must be shared, or a logout holds on one instance only.
    if (!sharedKv && !onVercel && !e.SINGLE_INSTANCE) {
      missing.push(
        'REDIS_URL or KV_REST_API_URL + KV_REST_API_TOKEN is required in production (or ' +
          'SINGLE_INSTANCE=1 for one instance)',
      );
    }
  }
  // docs/api.md#vercel: Vercel keeps no filesystem and runs many instances, whatever NODE_ENV says.
  if (onVercel) {
    if (!e.DATABASE_URL)
      missing.push('DATABASE_URL is required on Vercel (the filesystem does not keep an embedded database)');
    if (!sharedKv)
      missing.push(
        'REDIS_URL or KV_REST_API_URL + KV_REST_API_TOKEN is required on Vercel (SINGLE_INSTANCE does not apply)',
      );
  }
  if (missing.length > 0) throw new ConfigError(`Invalid configuration — ${missing.join('; ')}`);

  const warnings: string[] = [];
  if (production && !sharedKv && e.SINGLE_INSTANCE) {
    warnings.push(
      'SINGLE_INSTANCE=1: nonces, rate limits and revocations live in this process only; run no second instance',
    );
  }
  // In development the local chain's account 0 is registrar and operator by design (scripts/dev.ts).
  if (production && e.REGISTRAR_PRIVATE_KEY && !e.OPERATOR_PRIVATE_KEY) {
    warnings.push('OPERATOR_PRIVATE_KEY is unset: the registrar key also sends payouts (release, refund, claimFor)');
  }
  // Relays share no nonce sequence (nor ETH) with settlements unless the operator says so.
  const relayerOwnKeyOnly = production && !e.RELAYER_SHARES_OPERATOR_KEY;
  if (relayerOwnKeyOnly && e.RPC_URL && e.REGISTRAR_PRIVATE_KEY && !e.RELAYER_PRIVATE_KEY) {
    warnings.push(
      'RELAYER_PRIVATE_KEY is unset: relayed funding is off and posters fund from their wallet ' +
        '(set a key of its own, or RELAYER_SHARES_OPERATOR_KEY=1 to relay with the operator key)',
    );
  }

  const siweDomains = [
    ...(e.SIWE_DOMAIN ?? `localhost:${e.PORT}`).split(','),
    // docs/api.md#vercel: a preview deployment admits its own hosts, and no other vercel.app host.
    ...(onVercel && e.VERCEL_ENV === 'preview' ? [e.VERCEL_URL, e.VERCEL_BRANCH_URL] : []),
  ]
    .map((d) => d?.trim().toLowerCase())
    .filter((d): d is string => Boolean(d));

  const dataDir = resolve(e.DATA_DIR);
  const devSecrets = production ? undefined : () => readOrCreateDevSecrets(dataDir);
  return {
    production,
    /** Said once at start-up (server.ts, instrumentation): settings that work but deserve a look. */
    warnings,
    chainId: e.BASE_CHAIN_ID ?? 31337,
    siweDomains,
    appOrigins: appOrigins(e.APP_ORIGINS, siweDomains),
    /** docs/api.md#mcp: the Origins /api/mcp serves — the app's own, plus MCP_ALLOWED_ORIGINS. */
    mcpOrigins: [...appOrigins(e.APP_ORIGINS, siweDomains), ...originList(e.MCP_ALLOWED_ORIGINS)],
    siweStatement: e.SIWE_STATEMENT,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    redisUrl: e.REDIS_URL,
    vercelKv: e.KV_REST_API_URL ? { url: e.KV_REST_API_URL, token: e.KV_REST_API_TOKEN ?? '' } : undefined,
    kvPrefix: e.KV_PREFIX,
    jwtSecret: e.JWT_SECRET ?? devSecrets!().jwtSecret,
    sessionSecret: e.SESSION_SECRET ?? devSecrets!().sessionSecret,
    jwtTtlSeconds: e.JWT_TTL_SECONDS,
    chain: {
      rpcUrl: e.RPC_URL,
      registrarKey: e.REGISTRAR_PRIVATE_KEY as `0x${string}` | undefined,
      passport: e.PASSPORT_ADDRESS?.toLowerCase() as `0x${string}` | undefined,
      escrow: e.ESCROW_ADDRESS?.toLowerCase() as `0x${string}` | undefined,
      // docs/api.md#bounties: a v2 escrow left running beside ESCROW_ADDRESS (v3) after an upgrade;
      // its tasks settle there.
      escrowV2: e.ESCROW_V2_ADDRESS?.toLowerCase() as `0x${string}` | undefined,
      // docs/escrow.md#upgrading-a-v3-deployment-to-v4: a v3 escrow kept beside v4; its agents' balances are claimed
      // there.
      escrowV3: e.ESCROW_V3_ADDRESS?.toLowerCase() as `0x${string}` | undefined,
      // docs/escrow.md#upgrading-a-v4-deployment-to-v5: a v4 escrow kept beside v5; its tasks settle (all or
      // nothing) and its agents' balances are claimed there.
      escrowV4: e.ESCROW_V4_ADDRESS?.toLowerCase() as `0x${string}` | undefined,
      rewardToken: e.REWARD_TOKEN_ADDRESS?.toLowerCase() as `0x${string}` | undefined,
      // docs/api.md#erc-8004: identities agents link, and where the operator writes feedback at settlement.
      identityRegistry: e.ERC8004_IDENTITY_ADDRESS?.toLowerCase() as `0x${string}` | undefined,
      reputationRegistry: e.ERC8004_REPUTATION_ADDRESS?.toLowerCase() as `0x${string}` | undefined,
      /** docs/api.md#feedback-bounds: a settlement of a smaller reward gives no feedback. */
      minFeedbackReward: e.ERC8004_MIN_FEEDBACK_REWARD,
      /** docs/api.md#feedback-bounds: feedback transactions broadcast an hour; the rest wait. */
      feedbackBudgetPerHour: e.ERC8004_FEEDBACK_BUDGET_PER_HOUR,
      mintWaitMs: e.MINT_WAIT_MS,
      // docs/api.md#settlements: payouts and mints are sent by different keys; unset, the registrar key sends both.
      operatorKey: (e.OPERATOR_PRIVATE_KEY ?? e.REGISTRAR_PRIVATE_KEY) as `0x${string}` | undefined,
      operatorKeyIsRegistrar: !e.OPERATOR_PRIVATE_KEY,
      mintBudgetPerHour: e.MINT_BUDGET_PER_HOUR,
      // docs/api.md#post-and-pay: sends createTaskWithAuthorization; unset, the operator key does — in
      // production only with RELAYER_SHARES_OPERATOR_KEY=1, else no relaying (docs/operating.md).
      relayerKey: (e.RELAYER_PRIVATE_KEY ??
        (relayerOwnKeyOnly ? undefined : (e.OPERATOR_PRIVATE_KEY ?? e.REGISTRAR_PRIVATE_KEY))) as
        | `0x${string}`
        | undefined,
      relayBudgetPerHour: e.RELAY_BUDGET_PER_HOUR,
      settlementMaxAttempts: e.SETTLEMENT_MAX_ATTEMPTS,
      reclaimGraceSeconds: e.RECLAIM_GRACE_SECONDS,
    },
    trustProxy: e.TRUST_PROXY,
    onVercel,
    singleInstance: e.SINGLE_INSTANCE && !sharedKv,
    nonces: { maxLive: e.NONCE_MAX_LIVE, ttlSeconds: e.NONCE_TTL_SECONDS, perMinute: e.NONCE_RATE_LIMIT_PER_MINUTE },
    limits: {
      verifyPerMinute: e.VERIFY_RATE_LIMIT_PER_MINUTE,
      writePerMinute: e.WRITE_RATE_LIMIT_PER_MINUTE,
      downloadPerMinute: e.DOWNLOAD_RATE_LIMIT_PER_MINUTE,
      operatorFailuresPerMinute: e.OPERATOR_RATE_LIMIT_PER_MINUTE,
      commentsPerMinute: e.COMMENT_RATE_LIMIT_PER_MINUTE,
      fundingReadsPerMinute: e.FUNDING_READ_RATE_LIMIT_PER_MINUTE,
      registrationsPerHour: e.OAUTH_REGISTRATIONS_PER_HOUR,
      registrationsGlobalPerHour: e.OAUTH_REGISTRATIONS_GLOBAL_PER_HOUR,
      tokenPerMinute: e.OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE,
      clientDocumentFetchesPerMinute: e.OAUTH_CLIENT_DOCUMENT_FETCHES_PER_MINUTE,
      clientDocumentFetchesPerSourcePerHour: e.OAUTH_CLIENT_DOCUMENT_FETCHES_PER_SOURCE_PER_HOUR,
      clientDocumentFetchesGlobalPerHour: e.OAUTH_CLIENT_DOCUMENT_FETCHES_GLOBAL_PER_HOUR,
      entriesPerMinute: e.ENTRY_RATE_LIMIT_PER_MINUTE,
      mcpPerMinute: e.MCP_RATE_LIMIT_PER_MINUTE,
      /** In progress at once on this instance (an in-process count: lib/mcp/in-progress.ts). */
      mcpMaxConcurrent: e.MCP_MAX_CONCURRENT,
    },
    missions: {
      reviewWindowSeconds: e.REVIEW_WINDOW_SECONDS,
      maxContests: e.MAX_CONTESTS,
      feeBps: e.PLATFORM_FEE_BPS,
      maxActive: e.MAX_ACTIVE_MISSIONS,
      maxUnfunded: e.MAX_UNFUNDED_MISSIONS,
      unfundedFilesMaxBytesPerUser: e.UNFUNDED_FILES_MAX_BYTES_PER_USER,
      unfundedFilesMaxBytes: e.UNFUNDED_FILES_MAX_BYTES,
      acceptWindowSeconds: e.ACCEPT_WINDOW_SECONDS,
      declineWindowSeconds: e.DECLINE_WINDOW_SECONDS,
      maxBountyEntries: e.MAX_BOUNTY_ENTRIES,
      disputeAllowanceSeconds: e.DISPUTE_ALLOWANCE_SECONDS,
    },
    webhooks: {
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
      retentionDays: e.WEBHOOK_RETENTION_DAYS,
      boardSubscriptionsMax: e.WEBHOOK_BOARD_SUBSCRIPTIONS_MAX,
      fanOutPerSecond: e.WEBHOOK_FANOUT_PER_SECOND,
      /** Trusted beside the system CAs by guarded fetches, only where private addresses are allowed (tests). */
      testCa: e.WEBHOOK_ALLOW_PRIVATE ? e.WEBHOOK_TEST_CA : undefined,
    },
    port: e.PORT,
    cronSecret: e.CRON_SECRET,
    adminToken: e.ADMIN_TOKEN,
    metricsToken: e.METRICS_TOKEN,
    /** OTLP/HTTP trace export; tracing is off without an endpoint. */
    otel: { endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT, headers: otlpHeaders ?? {}, serviceName: e.OTEL_SERVICE_NAME },
  };
}

export type Config = ReturnType<typeof loadConfig>;

/**
 * docs/api.md#origins: the origins a browser write may come from. Default: https:// plus each SIWE domain, and
 * http:// too for localhost (development has no TLS).
 */
function appOrigins(explicit: string | undefined, siweDomains: string[]): string[] {
  if (explicit) return originList(explicit);
  return siweDomains.flatMap((domain) => {
    const local = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(domain);
    return local ? [`http://${domain}`, `https://${domain}`] : [`https://${domain}`];
  });
}

/** A comma-separated list of origins, each lower-cased without a trailing slash. */
function originList(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((o) => o.trim().toLowerCase().replace(/\/+$/, ''))
    .filter(Boolean);
}

/**
 * The OpenTelemetry spec's `OTEL_EXPORTER_OTLP_HEADERS`: `name=value` pairs, values URL-encoded; undefined when
 * malformed.
 */
function parseOtlpHeaders(text: string | undefined): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? '').split(',').filter((p) => p.trim())) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    if (at < 1 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) return undefined;
    try {
      headers[name] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return undefined;
    }
  }
  return headers;
}

// Development only: secrets are generated once and kept under DATA_DIR, never in the repository.
let devSecretsCache: { jwtSecret: string; sessionSecret: string } | undefined;
function readOrCreateDevSecrets(dataDir: string) {
  if (devSecretsCache) return devSecretsCache;
  const file = join(dataDir, 'dev-secrets.json');
  if (existsSync(file)) {
    devSecretsCache = JSON.parse(readFileSync(file, 'utf8')) as { jwtSecret: string; sessionSecret: string };
  } else {
    devSecretsCache = { jwtSecret: randomBytes(32).toString('hex'), sessionSecret: randomBytes(32).toString('hex') };
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(devSecretsCache, null, 2), { mode: 0o600 });
  }
  return devSecretsCache;
}

let cached: Config | undefined;

/** The configuration of this process, parsed on first use. */
export function config(): Config {
  cached ??= loadConfig();
  return cached;
}

/** Forgets the parsed configuration so the next call re-reads the environment (tests, dev reload). */
export function resetConfig(): void {
  cached = undefined;
}
