// iron-session 8's sealed format — iron's `Fe26.2` seal with a `~2` suffix — written and read
// synchronously with node:crypto. iron-session does the same through async WebCrypto, which in
// Node 20 costs ~0.44 ms of CPU per seal or unseal (two key imports and derivations, and the
// promise and transfer machinery around each step) against ~20-30 µs here. Byte for byte the same
// format, so cookies sealed by either open with the other (tests/unit/auth/iron-seal.test.ts).
// Only what iron-session's sealData/unsealData use with a string password: aes-256-cbc and
// HMAC-SHA256, keys from PBKDF2-SHA1 with one iteration, password id "1".
import 'server-only';
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  type KeyObject,
  pbkdf2Sync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

const MAC_PREFIX = 'Fe26.2';
// iron-session names a lone string password "1" (its password map is { 1: password }).
const PASSWORD_ID = '1';
const SESSION_VERSION = 2;
// iron's defaults: both salts 256 random bits, written as hex; keys of 256 bits.
const SALT_BYTES = 32;
const KEY_BYTES = 32;
const IV_BYTES = 16;
const MIN_PASSWORD_LENGTH = 32;
// iron accepts a seal up to a minute past its expiration (clock skew between instances).
const TIMESTAMP_SKEW_MS = 60_000;

const BASE64URL = /^[A-Za-z0-9_-]*$/;

// iron derives each key from the password and the salt *text* (the hex string, as UTF-8). Handed
// over as a KeyObject: Node 24 takes ~15-20 µs longer to set up an HMAC or a cipher from a Buffer
// key than from a KeyObject (1-3 µs; Node 20 costs the same either way), which made an unseal
// 98 µs against 24 on Node 20 and cookie-authenticated me fall to 1.0x its peer (npm run bench:peer).
const deriveKey = (password: string, salt: string): KeyObject =>
  createSecretKey(pbkdf2Sync(password, salt, 1, KEY_BYTES, 'sha1'));

const hmacDigest = (password: string, salt: string, text: string): string =>
  createHmac('sha256', deriveKey(password, salt)).update(text).digest('base64url');

/**
 * iron's base64url decoding for what a sealer can have written: the alphabet only, no padding, and
 * never a length of 4k+1 (iron would read that as a trailing zero byte; Node's decoder drops it).
 * Anything else is refused, which only matters to a holder of the password, who alone can make a
 * seal whose MAC holds.
 */
function decodeBase64url(text: string): Buffer | undefined {
  return BASE64URL.test(text) && text.length % 4 !== 1 ? Buffer.from(text, 'base64url') : undefined;
}

/** iron-session's `sealData(data, { password, ttl })`: ttl in seconds, 0 for a seal that never expires. */
export function sealIronSession(
  data: Record<string, unknown>,
  password: string,
  ttlSeconds: number,
  now = Date.now(),
): string {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new Error(`Password string too short (min ${MIN_PASSWORD_LENGTH} characters required)`);
  // One draw for both salts and the IV: each draw is a call into OpenSSL's generator.
  const random = randomBytes(2 * SALT_BYTES + IV_BYTES);
  const encryptionSalt = random.subarray(0, SALT_BYTES).toString('hex');
  const macSalt = random.subarray(SALT_BYTES, 2 * SALT_BYTES).toString('hex');
  const iv = random.subarray(2 * SALT_BYTES);
  const cipher = createCipheriv('aes-256-cbc', deriveKey(password, encryptionSalt), iv);
  const encrypted = Buffer.concat([cipher.update(JSON.stringify(data), 'utf8'), cipher.final()]);
  const expiration = ttlSeconds ? String(now + ttlSeconds * 1000) : '';
  const macBase =
    `${MAC_PREFIX}*${PASSWORD_ID}*${encryptionSalt}*${iv.toString('base64url')}*` +
    `${encrypted.toString('base64url')}*${expiration}`;
  return `${macBase}*${macSalt}*${hmacDigest(password, macSalt, macBase)}~${SESSION_VERSION}`;
}

// iron turns the decrypted bytes into text with TextDecoder, which also drops a leading BOM.
const utf8 = new TextDecoder();

/**
 * iron-session's `unsealData(sealed, { password })`: the sealed data, or undefined for anything
 * iron-session would refuse (where it would answer `{}` and where it would throw alike).
 */
export function unsealIronSession(sealed: string, password: string, now = Date.now()): unknown {
  // iron-session's parseSeal: the text before the first "~" is iron's seal; the version is
  // parseInt of what follows it ("~2", and also "~2x"), none for a seal of version 1.
  const [seal, versionText] = sealed.split('~') as [string, string | undefined];
  const version = versionText === undefined ? undefined : parseInt(versionText, 10);

  const parts = seal.split('*');
  if (parts.length !== 8) return undefined;
  const [prefix, passwordId, encryptionSalt, ivText, encryptedText, expiration, macSalt, mac] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (prefix !== MAC_PREFIX) return undefined;
  if (expiration) {
    if (!/^\d+$/.test(expiration) || Number.parseInt(expiration, 10) <= now - TIMESTAMP_SKEW_MS) return undefined;
  }
  // An empty id means iron's "default", which a lone string password does not have; an empty salt
  // makes iron draw a random one, which can never reproduce the MAC or the key.
  if (passwordId !== PASSWORD_ID || password.length < MIN_PASSWORD_LENGTH || !macSalt || !encryptionSalt)
    return undefined;

  const macBase = `${prefix}*${passwordId}*${encryptionSalt}*${ivText}*${encryptedText}*${expiration}`;
  const expected = Buffer.from(hmacDigest(password, macSalt, macBase));
  const given = Buffer.from(mac);
  // Compared as text, as iron does: a differently padded or cased encoding of the same bytes is refused.
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;

  const iv = decodeBase64url(ivText);
  const encrypted = decodeBase64url(encryptedText);
  if (iv?.length !== IV_BYTES || encrypted === undefined) return undefined;
  let data: unknown;
  try {
    const decipher = createDecipheriv('aes-256-cbc', deriveKey(password, encryptionSalt), iv);
    const text = utf8.decode(Buffer.concat([decipher.update(encrypted), decipher.final()]));
    data = text ? JSON.parse(text) : null;
  } catch {
    return undefined;
  }
  data ??= {};
  // iron-session 8 reads a version-1 seal's data from its `persistent` field.
  return version === SESSION_VERSION ? data : { ...(data as { persistent?: object }).persistent };
}
