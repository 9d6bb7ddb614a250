// Operator endpoints (cron sweep, admin, metrics) are authorized by a shared secret from the environment,
// compared in constant time (docs/api.md#operator-secrets). What makes a secret unguessable is its length (32
// characters in production). Wrong secrets are counted per kind and IP: past the limit each further
// wrong one is 429 with Retry-After: a guesser shows, a misconfigured client backs off. The right
// secret is always compared and always passes: a flood of wrong ones from an address the operator
// shares (Vercel's cron egress, an office NAT), or of another kind, cannot lock the operator out.
import { timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';
import type { Kv } from '../kv';
import { ApiError } from '../errors';

export type OperatorSecret = 'admin' | 'cron' | 'metrics';

const WINDOW_MS = 60_000;

/** Requires `Authorization: Bearer <secret>`; an unset secret means the operation is disabled (404). */
export async function requireOperator(
  request: Request,
  which: OperatorSecret,
  cfg: Config,
  kv: Kv,
  ip: string,
): Promise<void> {
  const secret = { admin: cfg.adminToken, cron: cfg.cronSecret, metrics: cfg.metricsToken }[which];
  if (!secret) throw new ApiError(404, 'Not found');
  if (matches(request.headers.get('authorization'), secret)) return;
  const { count, resetMs } = await kv.hit(`rl:operator-failures:${which}:${ip}`, WINDOW_MS);
  if (count > cfg.limits.operatorFailuresPerMinute) throw tooMany(resetMs);
  throw new ApiError(401, 'Invalid operator credentials');
}

function matches(authorization: string | null, secret: string): boolean {
  const presented = Buffer.from(/^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? '');
  const expected = Buffer.from(secret);
  // timingSafeEqual needs equal lengths; comparing against itself keeps the time the same.
  const same = timingSafeEqual(presented.length === expected.length ? presented : expected, expected);
  return same && presented.length === expected.length;
}

const tooMany = (resetMs: number) => {
  const seconds = String(Math.max(1, Math.ceil(resetMs / 1000)));
  return new ApiError(429, 'Too many failed operator attempts', undefined, { 'Retry-After': seconds });
};
