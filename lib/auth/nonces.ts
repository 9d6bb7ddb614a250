// The nonce rules (docs/api.md#sign-in): ≥ 96 bits from a CSPRNG, alphanumeric, bound to one lowercase
// address, five minutes of life, one use, and at most NONCE_MAX_LIVE alive across all instances.
import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { ApiError } from '../errors';
import type { CountedCharge, Kv } from '../kv';

const LIVE_SET = 'nonces:live';
const keyOf = (nonce: string) => `nonce:${nonce}`;

/** A new nonce bound to `address`; with `charge`, the rate limit's hit is counted in the same KV step. */
export async function issueNonce(kv: Kv, cfg: Config, address: string, charge?: CountedCharge): Promise<string> {
  // 128 bits as hex: alphanumeric, as EIP-4361 requires (≥ 8 alphanumeric characters).
  const nonce = randomBytes(16).toString('hex');
  const ttlMs = cfg.nonces.ttlSeconds * 1000;
  let stored: boolean;
  if (charge) {
    const counted = await kv.hitThenPutCapped(charge, keyOf(nonce), address, ttlMs, LIVE_SET, cfg.nonces.maxLive);
    charge.record(counted.hit);
    stored = counted.stored;
  } else {
    stored = await kv.putCapped(keyOf(nonce), address, ttlMs, LIVE_SET, cfg.nonces.maxLive);
  }
  if (!stored) throw new ApiError(503, 'Nonce storage full, try again shortly', undefined, { 'Retry-After': '30' });
  return nonce;
}

/**
 * Takes the nonce out of the store in one atomic step: whatever happens next, it is gone. Answers
 * its address. With `charge`, the rate limit's hit is counted in the same step (past the limit: 429, nonce kept).
 */
export async function takeNonce(kv: Kv, nonce: string, charge?: CountedCharge): Promise<string | null> {
  if (!charge) return kv.take(keyOf(nonce), LIVE_SET);
  const { hit, value } = await kv.hitThenTake(charge, keyOf(nonce), LIVE_SET);
  charge.record(hit);
  return value;
}
