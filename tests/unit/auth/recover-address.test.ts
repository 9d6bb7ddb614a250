// EOA signature recovery: libsecp256k1 (npm `secp256k1`) and viem's pure-JS recovery agree on
// every signature, good or malformed, and the native one loads from the package's prebuilt binary.
import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { hashMessage, toHex, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  parseSignature,
  recoverSigner,
  recoverWithJs,
  recoverWithNative,
  type Recover,
} from '@/lib/auth/recover-address';

const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const word = (value: bigint) => value.toString(16).padStart(64, '0');
const randomMessage = () => randomBytes(1 + (randomBytes(1)[0]! % 200)).toString('base64');

function native(): Recover {
  const recover = recoverWithNative();
  if (!recover) throw new Error('libsecp256k1 did not load');
  return recover;
}

/** Both recoveries of `signature` over `hash`, through the shared parser. */
async function bothRecover(hash: Hex, signature: Hex) {
  const parsed = parseSignature(signature);
  if (!parsed) return { parsed: false, native: undefined, js: undefined };
  return { parsed: true, native: await native()(hash, parsed), js: await recoverWithJs(hash, parsed) };
}

/** A real signature, split into its words so a test can bend one of them. */
async function realSignature() {
  const account = privateKeyToAccount(generatePrivateKey());
  const hash = hashMessage(randomMessage());
  const signature = await account.sign({ hash });
  return { account, hash, signature, r: signature.slice(2, 66), s: signature.slice(66, 130), v: signature.slice(130) };
}

describe('recoverSigner', () => {
  test('default: the native recovery loads from the prebuilt binary, with no install script run', () => {
    expect(recoverWithNative()).toBeTypeOf('function');
  });

  test('behavior: native and JS recover the same address for 250 random keys and messages', async () => {
    for (let i = 0; i < 250; i++) {
      const account = privateKeyToAccount(generatePrivateKey());
      const message = randomMessage();
      const hash = hashMessage(message);
      const signature = await account.signMessage({ message });
      expect(await bothRecover(hash, signature)).toEqual({
        parsed: true,
        native: account.address,
        js: account.address,
      });
      expect(await recoverSigner(hash, signature)).toBe(account.address);
    }
  });

  test('behavior: both accept v as 0/1 as well as 27/28', async () => {
    const { account, hash, r, s, v } = await realSignature();
    const yParity = Number.parseInt(v, 16) - 27;
    const signature = `0x${r}${s}0${yParity}` as Hex;
    expect(await bothRecover(hash, signature)).toEqual({ parsed: true, native: account.address, js: account.address });
  });

  test('behavior: both accept the high-s twin of a signature, as ecrecover does', async () => {
    const { account, hash, r, s, v } = await realSignature();
    const flipped = Number.parseInt(v, 16) === 27 ? '1c' : '1b';
    const twin = `0x${r}${word(CURVE_ORDER - BigInt(`0x${s}`))}${flipped}` as Hex;
    expect(await bothRecover(hash, twin)).toEqual({ parsed: true, native: account.address, js: account.address });
  });

  test("behavior: both agree on 200 random 65-byte strings with a valid v (some r are no point's x)", async () => {
    let recovered = 0;
    for (let i = 0; i < 200; i++) {
      const hash = toHex(randomBytes(32));
      const signature = `${toHex(randomBytes(64))}${i % 2 ? '1b' : '1c'}` as Hex;
      const result = await bothRecover(hash, signature);
      expect(result.native).toBe(result.js);
      if (result.native) recovered++;
    }
    // About half of all x values lie on the curve: both outcomes were exercised.
    expect(recovered).toBeGreaterThan(50);
    expect(recovered).toBeLessThan(150);
  });

  test('error: a wrong length is refused', async () => {
    const { hash, signature } = await realSignature();
    for (const bad of [
      signature.slice(0, -2),
      `${signature}00`,
      signature.slice(0, 130),
      '0x',
      `0x${'00'.repeat(64)}`,
    ] as Hex[]) {
      expect(parseSignature(bad)).toBeUndefined();
      expect(await recoverSigner(hash, bad)).toBeUndefined();
    }
  });

  test('error: a v other than 0, 1, 27, 28 is refused', async () => {
    const { hash, r, s } = await realSignature();
    for (const v of ['02', '1a', '1d', '25', '26', 'ff']) {
      const signature = `0x${r}${s}${v}` as Hex;
      expect(parseSignature(signature), v).toBeUndefined();
      expect(await recoverSigner(hash, signature)).toBeUndefined();
    }
  });

  test('error: r or s of zero, equal to n or above n is refused', async () => {
    const { hash, r, s, v } = await realSignature();
    for (const bad of [0n, CURVE_ORDER, CURVE_ORDER + 1n, 2n ** 256n - 1n]) {
      for (const signature of [`0x${word(bad)}${s}${v}`, `0x${r}${word(bad)}${v}`] as Hex[]) {
        expect(parseSignature(signature)).toBeUndefined();
        expect(await recoverSigner(hash, signature)).toBeUndefined();
      }
    }
  });

  test('error: both backends, called past the parser, also refuse what the parser refuses', async () => {
    // The parser is the single gate; this shows neither backend would silently accept what it drops.
    const { hash, r, v } = await realSignature();
    const compact = Buffer.from(`${r}${word(CURVE_ORDER)}`, 'hex');
    const unparsed = { hex: `0x${r}${word(CURVE_ORDER)}${v}` as Hex, compact, yParity: 0 as const };
    expect(await native()(hash, unparsed)).toBeUndefined();
    expect(await recoverWithJs(hash, unparsed)).toBeUndefined();
  });

  test('error: a signature over another message recovers another address', async () => {
    const { account, signature } = await realSignature();
    const other = hashMessage('something else');
    const result = await bothRecover(other, signature);
    expect(result.native).toBe(result.js);
    expect(result.native).not.toBe(account.address);
  });
});
