// Fixed-window rate limits kept in the shared KV, so every instance counts the same hits.
import type { Config } from '../config';
import type { Kv } from '../kv';
import { ApiError } from './errors';

export interface Limit {
  /** What the window counts per: the client IP, or the authenticated user. */
  scope: 'ip' | 'user';
  max: (cfg: Config) => number;
  windowMs: number;
}

// API.md §4. A route names one limit; the specific ones replace `write` where they apply. The
// bump's once-an-hour is a rule of the mission itself (its bumpedAt), in lib/missions/transitions.ts.
export const LIMITS = {
  nonce: { scope: 'ip', max: (c) => c.nonces.perMinute, windowMs: 60_000 },
  verify: { scope: 'ip', max: (c) => c.limits.verifyPerMinute, windowMs: 60_000 },
  write: { scope: 'user', max: (c) => c.limits.writePerMinute, windowMs: 60_000 },
  createMission: { scope: 'user', max: () => 20, windowMs: 3_600_000 },
  claim: { scope: 'user', max: () => 5, windowMs: 60_000 },
  // API.md §15: questions and answers are free text anyone signed in may post.
  comment: { scope: 'user', max: (c) => c.limits.commentsPerMinute, windowMs: 60_000 },
  // §12.6: a download streams up to 10 MB out of the database; anonymous callers count by IP too.
  download: { scope: 'ip', max: (c) => c.limits.downloadPerMinute, windowMs: 60_000 },
} satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;

/** Counts one request against `name` for `subject`; throws 429 past the limit. Answers the RateLimit-* headers. */
export async function consume(kv: Kv, cfg: Config, name: LimitName, subject: string): Promise<Record<string, string>> {
  const limit: Limit = LIMITS[name];
  const max = limit.max(cfg);
  const { count, resetMs } = await kv.hit(`rl:${name}:${subject}`, limit.windowMs);
  const reset = Math.max(1, Math.ceil(resetMs / 1000));
  const headers = {
    'RateLimit-Limit': String(max),
    'RateLimit-Remaining': String(Math.max(0, max - count)),
    'RateLimit-Reset': String(reset),
  };
  if (count > max) throw new ApiError(429, 'Too many requests', undefined, { ...headers, 'Retry-After': String(reset) });
  return headers;
}
