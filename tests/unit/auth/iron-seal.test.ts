// Our iron seal against iron-session itself: each opens what the other seals, and on tampered,
// expired, wrong-password and garbage cookies ours answers as iron-session does (refused).
import { createCipheriv, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { sealData, unsealData } from 'iron-session';
import { describe, expect, test } from 'vitest';
import { sealIronSession, unsealIronSession } from '@/lib/auth/iron-seal';
import { readSessionCookie, sealSessionCookie, SESSION_COOKIE, sessionCookieName } from '@/lib/auth/session-cookie';
import type { Config } from '@/lib/config';

const PASSWORD = 'p'.repeat(16) + 'ä€𝄞'.repeat(4);
const TTL = 3600;
const REFUSED = 'refused';

/** What iron-session's unsealData answers: the data, or REFUSED where it answers {} or throws. */
async function ironOpens(sealed: string, password = PASSWORD): Promise<unknown> {
  try {
    const data: object = await unsealData(sealed, { password, ttl: TTL });
    return Object.keys(data).length === 0 ? REFUSED : data;
  } catch {
    return REFUSED;
  }
}

/** The same question put to ours. */
function weOpen(sealed: string, password = PASSWORD, now?: number): unknown {
  const data = unsealIronSession(sealed, password, now);
  return data === undefined || (typeof data === 'object' && data !== null && Object.keys(data).length === 0)
    ? REFUSED
    : data;
}

const FORMAT = /^Fe26\.2\*1\*[0-9a-f]{64}\*[A-Za-z0-9_-]{22}\*[A-Za-z0-9_-]+\*\d+\*[0-9a-f]{64}\*[A-Za-z0-9_-]{43}~2$/;
const password = fc.oneof(
  fc.string({ minLength: 32, maxLength: 64 }),
  fc.string({ unit: 'binary', minLength: 32, maxLength: 48 }),
);
const data = fc
  .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 })
  .map((d) => ({ token: 'x', ...d }));

describe('sealIronSession and unsealIronSession', () => {
  test('default: iron-session opens what we seal, and we open what it seals, in the same format', async () => {
    const ours = sealIronSession({ token: 'a.b.c' }, PASSWORD, TTL);
    const theirs = await sealData({ token: 'a.b.c' }, { password: PASSWORD, ttl: TTL });
    expect(ours).toMatch(FORMAT);
    expect(theirs).toMatch(FORMAT);
    expect(await unsealData(ours, { password: PASSWORD, ttl: TTL })).toEqual({ token: 'a.b.c' });
    expect(unsealIronSession(theirs, PASSWORD)).toEqual({ token: 'a.b.c' });
    // Same expiry: iron-session writes now + ttl in milliseconds.
    const expiry = (sealed: string) => Number(sealed.split('*')[5]);
    expect(Math.abs(expiry(ours) - expiry(theirs))).toBeLessThan(1000);
  });

  test('behavior: any data and any password of 32+ characters round-trip both ways', async () => {
    await fc.assert(
      fc.asyncProperty(data, password, async (d, pass) => {
        const ours = sealIronSession(d, pass, TTL);
        const theirs = await sealData(d, { password: pass, ttl: TTL });
        expect(await ironOpens(ours, pass)).toStrictEqual(JSON.parse(JSON.stringify(d)));
        expect(weOpen(theirs, pass)).toStrictEqual(await ironOpens(theirs, pass));
      }),
      { numRuns: 200 },
    );
  });

  test(
    'behavior: a seal bent anywhere — a character replaced, inserted, removed, or cut short ' +
      '— is answered as iron-session answers it',
    async () => {
      const sealed = await sealData({ token: 'a.b.c' }, { password: PASSWORD, ttl: TTL });
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: sealed.length }),
          fc.constantFrom('replace', 'insert', 'delete', 'cut'),
          fc.constantFrom(...'Aa0_-*~=.%2 é'),
          async (at, how, char) => {
            const bent =
              how === 'cut'
                ? sealed.slice(0, at)
                : sealed.slice(0, at) + (how === 'delete' ? '' : char) + sealed.slice(how === 'insert' ? at : at + 1);
            const answer = weOpen(bent);
            expect(answer, bent).toStrictEqual(await ironOpens(bent));
            // Only a change after the "~2" (parseInt reads "~2x" as 2) or none at all leaves it openable.
            if (answer !== REFUSED)
              expect(bent.slice(0, sealed.indexOf('~'))).toBe(sealed.slice(0, sealed.indexOf('~')));
          },
        ),
        { numRuns: 400 },
      );
    },
  );

  test('error: an expired seal is refused by both, after the same minute of clock skew', async () => {
    const hourAgo = Date.now() - TTL * 1000;
    const withinSkew = sealIronSession({ token: 't' }, PASSWORD, TTL, hourAgo - 30_000);
    const pastSkew = sealIronSession({ token: 't' }, PASSWORD, TTL, hourAgo - 90_000);
    expect(weOpen(withinSkew)).toEqual({ token: 't' });
    expect(await ironOpens(withinSkew)).toEqual({ token: 't' });
    expect(weOpen(pastSkew)).toBe(REFUSED);
    expect(await ironOpens(pastSkew)).toBe(REFUSED);
    // And one iron-session sealed, opened by us an hour and a half later.
    const theirs = await sealData({ token: 't' }, { password: PASSWORD, ttl: TTL });
    expect(weOpen(theirs, PASSWORD, Date.now() + TTL * 1000 + 90_000)).toBe(REFUSED);
  });

  test('behavior: a seal without expiry (ttl 0) opens with both', async () => {
    const ours = sealIronSession({ token: 't' }, PASSWORD, 0);
    expect(ours.split('*')[5]).toBe('');
    expect(await ironOpens(ours)).toEqual({ token: 't' });
    expect(weOpen(await sealData({ token: 't' }, { password: PASSWORD, ttl: 0 }))).toEqual({ token: 't' });
  });

  test('error: a seal made with another password is refused by both', async () => {
    const other = 'q'.repeat(32);
    for (const sealed of [
      sealIronSession({ token: 't' }, other, TTL),
      await sealData({ token: 't' }, { password: other, ttl: TTL }),
    ]) {
      expect(weOpen(sealed)).toBe(REFUSED);
      expect(await ironOpens(sealed)).toBe(REFUSED);
    }
  });

  test('behavior: a version-1 seal (no "~2") is read from its persistent field, as iron-session does', async () => {
    const sealed = (await sealData({ persistent: { token: 'old' } }, { password: PASSWORD, ttl: TTL })).replace(
      /~2$/,
      '',
    );
    expect(weOpen(sealed)).toEqual({ token: 'old' });
    expect(await ironOpens(sealed)).toEqual({ token: 'old' });
  });

  test.each([
    ['empty', ''],
    ['garbage', 'garbage'],
    ['a bare version', '~2'],
    ['seven parts', 'Fe26.2*1*a*b*c*d*e~2'],
    ['another prefix', 'Fe26.1*1*a*b*c**e*f~2'],
    ['a non-numeric expiry', 'Fe26.2*1*a*b*c*12x*e*f~2'],
    ['an unknown password id', 'Fe26.2*2*a*b*c**e*f~2'],
    ['an empty password id', 'Fe26.2**a*b*c**e*f~2'],
  ])('error: %s is refused by both', async (_name, sealed) => {
    expect(weOpen(sealed)).toBe(REFUSED);
    expect(await ironOpens(sealed)).toBe(REFUSED);
  });

  test('error: a password shorter than 32 characters is refused, as iron-session refuses it', async () => {
    expect(() => sealIronSession({ token: 't' }, 'short', TTL)).toThrow(
      'Password string too short (min 32 characters required)',
    );
    await expect(sealData({ token: 't' }, { password: 'short', ttl: TTL })).rejects.toThrow(
      'Password string too short (min 32 characters required)',
    );
  });
});

/**
 * A seal made by hand with the password, for what only a holder of the password can write: another
 * password id, odd plaintext, padded base64. Written independently of lib/auth/iron-seal.ts.
 */
function forge(parts: {
  id?: string;
  plaintext?: Buffer;
  expiration?: string;
  encryptionSalt?: string;
  macSalt?: string;
  ivText?: (iv: Buffer) => string;
}): string {
  const {
    id = '1',
    plaintext = Buffer.from('{"token":"f"}'),
    expiration = String(Date.now() + 60_000),
    encryptionSalt = 'ab'.repeat(32),
    macSalt = 'cd'.repeat(32),
  } = parts;
  const key = (salt: string) => pbkdf2Sync(PASSWORD, salt, 1, 32, 'sha1');
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key(encryptionSalt), iv);
  const encrypted = Buffer.concat([cipher.update(plaintext), cipher.final()]).toString('base64url');
  const ivText = (parts.ivText ?? ((v) => v.toString('base64url')))(iv);
  const base = `Fe26.2*${id}*${encryptionSalt}*${ivText}*${encrypted}*${expiration}`;
  return `${base}*${macSalt}*${createHmac('sha256', key(macSalt)).update(base).digest('base64url')}~2`;
}

describe('seals only a holder of the password can make', () => {
  test.each([
    ['a well-formed one', {}],
    ['password id 2', { id: '2' }],
    ['an empty password id', { id: '' }],
    ['a byte-order mark before the JSON', { plaintext: Buffer.from('\ufeff{"token":"bom"}') }],
    [
      'invalid UTF-8 inside the JSON',
      { plaintext: Buffer.concat([Buffer.from('{"token":"a'), Buffer.from([0xff, 0xc3]), Buffer.from('"}')]) },
    ],
    ['an empty plaintext', { plaintext: Buffer.alloc(0) }],
    ['JSON null', { plaintext: Buffer.from('null') }],
    ['JSON that is not an object', { plaintext: Buffer.from('"text"') }],
    ['broken JSON', { plaintext: Buffer.from('{"token":') }],
    ['an expiry of zero', { expiration: '0' }],
    ['no expiry', { expiration: '' }],
    ['an empty MAC salt', { macSalt: '' }],
    ['an empty encryption salt', { encryptionSalt: '' }],
    ['a salt that is not hex', { encryptionSalt: 'not hex at all, ünïcode', macSalt: 'ünïcode too' }],
    ['an IV one byte short', { ivText: (iv: Buffer) => iv.subarray(1).toString('base64url') }],
  ])('behavior: %s is answered as iron-session answers it', async (_name, parts) => {
    const sealed = forge(parts);
    expect(weOpen(sealed)).toStrictEqual(await ironOpens(sealed));
  });

  test(
    'behavior: a forged seal is opened (the forgery above is faithful), a BOM is dropped as ' + 'TextDecoder drops it',
    async () => {
      expect(weOpen(forge({}))).toEqual({ token: 'f' });
      expect(weOpen(forge({ plaintext: Buffer.from('\ufeff{"token":"bom"}') }))).toEqual({ token: 'bom' });
    },
  );

  test(
    'deviation: base64 with "=" padding, which no sealer writes, is refused by ours though ' +
      'iron-session decodes it',
    async () => {
      const padded = forge({ ivText: (iv) => iv.toString('base64').replace(/\+/g, '-').replace(/\//g, '_') });
      expect(padded.split('*')[3]).toMatch(/==$/);
      expect(await ironOpens(padded)).toEqual({ token: 'f' });
      expect(weOpen(padded)).toBe(REFUSED);
    },
  );
});

describe('the session cookie', () => {
  const cfg = { sessionSecret: PASSWORD, jwtTtlSeconds: TTL, production: true } as Config;

  test('default: reads back its own cookie, and one iron-session sealed', async () => {
    const header = sealSessionCookie(cfg, 'a.b.c');
    expect(header).toMatch(
      /^__Host-taskmarket_session=Fe26\.2\*[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=3600; Secure$/,
    );
    expect(readSessionCookie(cfg, `other=1; ${header.split(';')[0]}`)).toBe('a.b.c');
    const theirs = await sealData({ token: 'x.y.z' }, { password: PASSWORD, ttl: TTL });
    expect(readSessionCookie(cfg, `${sessionCookieName(cfg)}=${theirs}`)).toBe('x.y.z');
    // In production a cookie without the __Host- prefix may have been set by a sibling subdomain.
    expect(readSessionCookie(cfg, `${SESSION_COOKIE}=${theirs}`)).toBeUndefined();
  });

  test('error: no cookie, a cookie without a token, or a token that is not text reads as none', async () => {
    expect(readSessionCookie(cfg, null)).toBeUndefined();
    expect(readSessionCookie(cfg, `${sessionCookieName(cfg)}=`)).toBeUndefined();
    expect(
      readSessionCookie(
        cfg,
        `${sessionCookieName(cfg)}=${await sealData({ user: 1 }, { password: PASSWORD, ttl: TTL })}`,
      ),
    ).toBeUndefined();
    expect(
      readSessionCookie(cfg, `${sessionCookieName(cfg)}=${sealIronSession({ token: 42 }, PASSWORD, TTL)}`),
    ).toBeUndefined();
  });
});
