// Who signed a 32-byte hash with plain ECDSA (Ethereum's ecrecover): libsecp256k1 through npm
// `secp256k1` when its prebuilt binary loads, viem's pure-JS recovery otherwise. One parser in
// front of both, so both refuse exactly the same malformed signatures. Contract wallets: signature.ts.
import { createRequire } from 'node:module';
import { type Address, getAddress, type Hex, hexToBigInt, hexToBytes, keccak256, recoverAddress, size } from 'viem';
import { log } from '../log';

// The secp256k1 group order n: r and s must lie in [1, n − 1].
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

export interface ParsedSignature {
  /** The signature as sent: 65 bytes r ‖ s ‖ v. */
  hex: Hex;
  /** r ‖ s, 64 bytes. */
  compact: Uint8Array;
  yParity: 0 | 1;
}

/**
 * 65 bytes r ‖ s ‖ v, with v ∈ {0, 1, 27, 28} and r, s in [1, n − 1]; anything else is undefined.
 * A high s is admitted, as ecrecover admits it: the nonce, not the signature, stops a replay.
 */
export function parseSignature(signature: Hex): ParsedSignature | undefined {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return undefined;
  const v = Number.parseInt(signature.slice(130), 16);
  const yParity = v === 0 || v === 27 ? 0 : v === 1 || v === 28 ? 1 : undefined;
  if (yParity === undefined) return undefined;
  for (const word of [`0x${signature.slice(2, 66)}`, `0x${signature.slice(66, 130)}`] as const) {
    const value = hexToBigInt(word);
    if (value === 0n || value >= CURVE_ORDER) return undefined;
  }
  return { hex: signature, compact: hexToBytes(`0x${signature.slice(2, 130)}`), yParity };
}

/** Recovers the signer's checksum address, or undefined when no public key fits (e.g. r is no curve point's x). */
export type Recover = (hash: Hex, signature: ParsedSignature) => Promise<Address | undefined>;

export const recoverWithJs: Recover = async (hash, signature) => {
  try {
    return await recoverAddress({ hash, signature: signature.hex });
  } catch {
    return undefined;
  }
};

interface NativeSecp256k1 {
  ecdsaRecover(signature: Uint8Array, recoveryId: number, hash: Uint8Array, compressed: boolean): Uint8Array;
}

function nativeRecover(native: NativeSecp256k1): Recover {
  return async (hash, signature) => {
    if (size(hash) !== 32) return undefined;
    try {
      const publicKey = native.ecdsaRecover(signature.compact, signature.yParity, hexToBytes(hash), false);
      // The address is the last 20 bytes of keccak256 of the uncompressed key without its 0x04 prefix.
      return getAddress(`0x${keccak256(publicKey.subarray(1)).slice(-40)}`);
    } catch {
      return undefined;
    }
  };
}

let native: Recover | null | undefined;

/** libsecp256k1's recovery, or undefined when its binary does not load on this platform. */
export function recoverWithNative(): Recover | undefined {
  if (native === undefined) {
    try {
      // `secp256k1/bindings`, not the package's main: that one falls back to a slow pure-JS
      // implementation of its own, silently. Loaded through require: the package ships no types.
      const bindings = createRequire(import.meta.url)('secp256k1/bindings') as NativeSecp256k1;
      native = nativeRecover(bindings);
    } catch (error) {
      native = null;
      log.warn('signature.recovery', { backend: 'js', reason: (error as Error).message });
    }
    // Once per process: which recovery this instance runs is worth knowing (it is ~40× apart).
    if (native) log.info('signature.recovery', { backend: 'libsecp256k1' });
  }
  return native ?? undefined;
}

/** The signer of `hash`, by the fastest recovery this platform has; undefined for a malformed signature. */
export async function recoverSigner(hash: Hex, signature: Hex): Promise<Address | undefined> {
  const parsed = parseSignature(signature);
  if (!parsed) return undefined;
  return (recoverWithNative() ?? recoverWithJs)(hash, parsed);
}
