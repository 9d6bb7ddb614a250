// The nonce rules (API.md §3): ≥ 96 bits from a CSPRNG, alphanumeric, bound to one lowercase
// address, five minutes of life, one use, and at most NONCE_MAX_LIVE alive across all instances.
import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { ApiError } from '../http/errors';
import type { Kv } from '../kv';

const LIVE_SET = 'nonces:live';
const keyOf = (nonce: string) => `nonce:${nonce}`;

export async function issueNonce(kv: Kv, cfg: Config, address: string): Promise<string> {
  // 128 bits as hex: alphanumeric, as EIP-4361 requires (≥ 8 alphanumeric characters).
  const nonce = randomBytes(16).toString('hex');
  const stored = await kv.putCapped(keyOf(nonce), address, cfg.nonces.ttlSeconds * 1000, LIVE_SET, cfg.nonces.maxLive);
  if (!stored) throw new ApiError(503, 'Nonce storage full, try again shortly', undefined, { 'Retry-After': '30' });
  return nonce;
}

/** Takes the nonce out of the store in one atomic step: whatever happens next, it is gone. Answers its address. */
export async function takeNonce(kv: Kv, nonce: string): Promise<string | null> {
  return kv.take(keyOf(nonce), LIVE_SET);
}
