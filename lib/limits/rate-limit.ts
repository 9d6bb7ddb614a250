// Fixed-window rate limits kept in the shared KV, so every instance counts the same hits.
import type { Config } from '../config';
import type { Charge, CountedCharge, Hit, Kv } from '../kv';
import { ApiError } from '../errors';

export interface Limit {
  /**
   * What the window counts per: the client IP, its source (`source`: the IP, but IPv6 by /48 — for
   * anonymous OAuth work, docs/api.md#client-ip), the authenticated user, or everyone at once (`global`:
   * a ceiling beside a per-IP limit, counted by the handler where what it guards is about to happen).
   */
  scope: 'ip' | 'source' | 'user' | 'global';
  max: (cfg: Config) => number;
  windowMs: number;
  /**
   * Counted by the handler's own KV step, in the same script as its work (one round trip instead
   * of two), after the small JSON body is read; a request refused before that step is counted by
   * the route wrapper. Only for per-IP limits on public routes with a small body (nonce, verify).
   */
  withWork?: true;
}

// docs/api.md#limits. A route names one limit; the specific ones replace `write` where they apply. The
// bump's once-an-hour is a rule of the mission itself (its bumpedAt), in lib/missions/transitions.ts.
export const LIMITS = {
  nonce: { scope: 'ip', max: (c) => c.nonces.perMinute, windowMs: 60_000, withWork: true },
  verify: { scope: 'ip', max: (c) => c.limits.verifyPerMinute, windowMs: 60_000, withWork: true },
  write: { scope: 'user', max: (c) => c.limits.writePerMinute, windowMs: 60_000 },
  createMission: { scope: 'user', max: () => 20, windowMs: 3_600_000 },
  claim: { scope: 'user', max: () => 5, windowMs: 60_000 },
  // docs/api.md#post-and-pay: the relayer pays the gas of each funding; a poster has ten a day (counted
  // when a relay is recorded, given back when nothing was sent), and everyone together
  // RELAY_BUDGET_PER_HOUR transactions broadcast (counted by lib/funding/process.ts at the send).
  relay: { scope: 'user', max: () => 10, windowMs: 86_400_000 },
  relayBudget: { scope: 'global', max: (c) => c.chain.relayBudgetPerHour, windowMs: 3_600_000 },
  // docs/api.md#standing-allowance: the mandates and revocations a person has relayed, five a day (one at a time).
  mandateRelay: { scope: 'user', max: () => 5, windowMs: 86_400_000 },
  // docs/api.md#limits: the funding page's reads (its poll while a relay is mined is one a second).
  fundingRead: { scope: 'user', max: (c) => c.limits.fundingReadsPerMinute, windowMs: 60_000 },
  // docs/api.md#comments: questions and answers are free text anyone signed in may post.
  comment: { scope: 'user', max: (c) => c.limits.commentsPerMinute, windowMs: 60_000 },
  // docs/api.md#bounties: each entry spools up to ten files; an agent replacing its entry in a loop is bounded.
  entry: { scope: 'user', max: (c) => c.limits.entriesPerMinute, windowMs: 60_000 },
  // docs/api.md#files: a download streams up to 10 MB out of the database; anonymous callers count by IP too.
  download: { scope: 'ip', max: (c) => c.limits.downloadPerMinute, windowMs: 60_000 },
  // docs/api.md#tokens: registration is anonymous by design; a source registers at most this many clients an hour.
  // Across all sources, the unused registrations of the last hour are bounded in lib/oauth/clients.ts (in the
  // database: a registration used in an authorization stops counting, which a KV window cannot give back).
  register: { scope: 'source', max: (c) => c.limits.registrationsPerHour, windowMs: 3_600_000 },
  // The token endpoint: codes and refresh tokens are unguessable, but each try costs a KV and a database call.
  token: { scope: 'ip', max: (c) => c.limits.tokenPerMinute, windowMs: 60_000 },
  // docs/api.md#client-id-metadata-documents: each client metadata document we fetch (a cache miss) is
  // an outbound request a stranger chose; counted by the handler, only when it fetches.
  clientDocument: { scope: 'source', max: (c) => c.limits.clientDocumentFetchesPerMinute, windowMs: 60_000 },
  // ...and a source's share of the hour (docs/api.md#client-id-metadata-documents): a few sources flooding never
  // spend the ceiling below, so a client from elsewhere still connects.
  clientDocumentHourly: {
    scope: 'source',
    max: (c) => c.limits.clientDocumentFetchesPerSourcePerHour,
    windowMs: 3_600_000,
  },
  // docs/api.md#client-id-metadata-documents: a stranger with many IPs makes us fetch at most this many an hour.
  clientDocumentGlobal: {
    scope: 'global',
    max: (c) => c.limits.clientDocumentFetchesGlobalPerHour,
    windowMs: 3_600_000,
  },
  // docs/api.md#limits: per user, whatever token or grant it comes with (twenty tokens are not twenty
  // budgets), and counted before the message is read. Its tools' own API calls count as well.
  mcp: { scope: 'user', max: (c) => c.limits.mcpPerMinute, windowMs: 60_000 },
} satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;

/** The hit one request makes against `name` for `subject`. */
export function chargeOf(cfg: Config, name: LimitName, subject: string): Charge {
  const limit: Limit = LIMITS[name];
  return { key: `rl:${name}:${subject}`, windowMs: limit.windowMs, max: limit.max(cfg) };
}

/** The RateLimit-* headers of a counted hit; throws 429 past the limit. */
export function verdict(charge: Charge, { count, resetMs }: Hit): Record<string, string> {
  const reset = Math.max(1, Math.ceil(resetMs / 1000));
  const headers = {
    'RateLimit-Limit': String(charge.max),
    'RateLimit-Remaining': String(Math.max(0, charge.max - count)),
    'RateLimit-Reset': String(reset),
  };
  if (count > charge.max)
    throw new ApiError(429, 'Too many requests', undefined, { ...headers, 'Retry-After': String(reset) });
  return headers;
}

/** The subject of a `global` limit: one window for every caller. */
export const EVERYONE = 'all';

/** Counts one request against `name` for `subject`; throws 429 past the limit. Answers the RateLimit-* headers. */
export async function consume(kv: Kv, cfg: Config, name: LimitName, subject: string): Promise<Record<string, string>> {
  const charge = chargeOf(cfg, name, subject);
  return verdict(charge, await kv.hit(charge.key, charge.windowMs));
}

/** Takes back one hit of `name` for `subject`: what it was counted for did not happen (docs/api.md#post-and-pay). */
export async function giveBack(kv: Kv, cfg: Config, name: LimitName, subject: string): Promise<void> {
  await kv.unhit(chargeOf(cfg, name, subject).key);
}

/** A request's hit against a `withWork` limit: the handler's KV step counts it and records it here. */
export class PendingCharge implements CountedCharge {
  readonly key: string;
  readonly windowMs: number;
  readonly max: number;
  /** Set once the hit is counted: the RateLimit-* headers (also past the limit). */
  headers: Record<string, string> | undefined;

  constructor(cfg: Config, name: LimitName, subject: string) {
    ({ key: this.key, windowMs: this.windowMs, max: this.max } = chargeOf(cfg, name, subject));
  }

  /** The count the KV step answered; throws 429 past the limit (the step did not do its work). */
  record(hit: Hit): void {
    try {
      this.headers = verdict(this, hit);
    } catch (error) {
      this.headers = (error as ApiError).headers;
      throw error;
    }
  }
}
