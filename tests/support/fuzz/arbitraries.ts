// The generators of the property tests: hostile text, JSON of every shape, raw bodies, headers,
// forged tokens and cookies, queries and cursors, multipart bodies byte by byte, and for each
// endpoint that takes input a valid body with one field mutated (so validation's deeper rules run).
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { sealData } from 'iron-session';
import { encodeCursorPayload } from '@/lib/paging/cursor';
import { pdf, png } from '../multipart';

// --- text ---

/** Strings a careless parser or database trips on: NUL, lone surrogates, bidi and BOM, separators, injections. */
export const HOSTILE = [
  '',
  ' ',
  '   ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202eevil',
  '\ufeff',
  '\r\n',
  '\t',
  '\u0085',
  '\u2028',
  '\u0007',
  '%00',
  '%',
  '%zz',
  '../../etc/passwd',
  '..\\..\\boot.ini',
  "' OR 1=1 --",
  '"; drop table missions; --',
  '"',
  '\\',
  '\\u0000',
  '${7*7}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '<svg onload=alert(1)>',
  'javascript:alert(1)',
  'data:text/html,x',
  '0',
  '-0',
  '-1',
  '01',
  '1.5',
  '1e3',
  '1e309',
  '0x10',
  'NaN',
  'Infinity',
  'null',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  '🦄',
  'é',
  'İ',
  'ß',
  '١٢٣',
  '𝟙𝟚𝟛',
  'Ａ',
  ',',
  ',,',
  'a,b',
  '#',
  '+',
  '.',
  '-',
  '_',
];

const boundaryLength = fc.constantFrom(
  0,
  1,
  31,
  32,
  33,
  49,
  50,
  51,
  63,
  64,
  65,
  99,
  100,
  101,
  199,
  200,
  201,
  499,
  500,
  501,
  1999,
  2000,
  2001,
  2047,
  2048,
  2049,
  10_000,
  10_001,
);

export const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 30 }) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
  {
    weight: 1,
    arbitrary: fc.tuple(boundaryLength, fc.constantFrom('x', ' ', 'é', '\u0000', '🦄')).map(([n, c]) => c.repeat(n)),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 10 }), fc.constantFrom(...HOSTILE))
      .map((p) => p.join('')),
  },
);

/** Numbers at the edges: zero, negatives, fractions, past 2^53, floats JSON can carry. */
export const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    0,
    -0,
    1,
    -1,
    0.5,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53),
    1e21,
    1e308,
    5e-324,
    2 ** 31,
    2 ** 32,
    2 ** 63,
    2 ** 256,
  ),
);

/** Decimal strings at the edges of uint256 and of money. */
export const decimal = fc.oneof(
  fc.bigInt({ min: -(1n << 300n), max: 1n << 300n }).map(String),
  fc.constantFrom(
    '0',
    '1',
    '00',
    '01',
    '-1',
    '1.0',
    ' 1',
    '1 ',
    '+1',
    '1e6',
    String(2n ** 256n - 1n),
    String(2n ** 256n),
    '9'.repeat(78),
    '9'.repeat(79),
    '1'.repeat(200),
  ),
);

const date = fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true });
/** Timestamps in and out of ISO 8601: offsets, impossible days, far years, no zone. */
export const timestamp = fc.oneof(
  date.map((d) => d.toISOString()),
  fc.integer({ min: -3600 * 24 * 400, max: 3600 * 24 * 400 }).map((s) => new Date(Date.now() + s * 1000).toISOString()),
  fc.constantFrom(
    '2026-02-30T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-12-31T23:59:60Z',
    '2026-01-01T00:00:00+99:99',
    '2026-01-01T00:00:00+14:00',
    '2026-01-01T00:00:00-12:00',
    '2026-01-01',
    '2026-01-01T00:00:00',
    '+275760-09-13T00:00:00.000Z',
    '-000001-01-01T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999999999Z',
    '2026-06-01T12:00:00.1234567890Z',
    '2026-W01-1',
    '2026-001',
    'now',
    'tomorrow',
    '1767225600',
    '2026-06-01T12:00:00z',
    '2026-06-01 12:00:00Z',
  ),
);

// --- JSON ---

export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: text },
  { weight: 2, arbitrary: number },
  { weight: 1, arbitrary: decimal },
  { weight: 1, arbitrary: timestamp },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
  { weight: 1, arbitrary: fc.array(text, { maxLength: 12 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2, stringUnit: 'binary' }) },
);

/** Field names the endpoints know, and the names an attacker tries. */
export const FIELDS = [
  'address',
  'message',
  'signature',
  'title',
  'description',
  'category',
  'tags',
  'reward',
  'deadline',
  'onChainTaskId',
  'note',
  'reason',
  'outcome',
  'displayName',
  'bio',
  'organization',
  'website',
  'avatarUrl',
  'role',
  'id',
  'walletAddress',
  'status',
  'agentId',
  'clientId',
  'files',
  '__proto__',
  'constructor',
  'prototype',
  '',
];

/** Any JSON text: any shape, any depth, plausible objects, and texts JSON.parse must refuse or survive. */
export const jsonText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }).map((v) => JSON.stringify(v)) },
  {
    weight: 4,
    arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), anyValue, { maxKeys: 8 }).map((v) => JSON.stringify(v)),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 6000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'null',
      '[]',
      '{}',
      '"x"',
      '1',
      '{',
      '{"a":1,}',
      "{'a':1}",
      '{"a":1}{"b":2}',
      'NaN',
      '\ufeff{}',
      '{"__proto__":{"admin":true}}',
      '{"title":"a","title":"b"}',
    ),
  },
);

/** Bodies that are not JSON at all: random text and bytes (invalid UTF-8 included). */
export const rawBody: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.uint8Array({ maxLength: 400 }),
  fc.constantFrom(
    'x'.repeat(16 * 1024 + 1),
    'a=1&b=2',
    '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n--x--\r\n',
  ),
);

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=x',
  'multipart/form-data; boundary="x y"',
  `multipart/form-data; boundary=${'b'.repeat(71)}`,
  'multipart/mixed; boundary=x',
  'image/png',
  '',
  ';',
  'application/merge-patch+json',
];

// --- headers, tokens, cookies ---

/** A header value a client can send: latin-1, no CR, LF or NUL (Headers refuses the rest, as would HTTP). */
export const headerValue = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '99999999999999999999',
    'null',
    'https://app.example.com',
    'https://evil.example',
    'null, null',
  ),
);

/** Headers the routes read, and some nobody reads. */
export const HEADER_NAMES = [
  'authorization',
  'cookie',
  'origin',
  'content-type',
  'content-length',
  'idempotency-key',
  'x-forwarded-for',
  'x-real-ip',
  'x-taskmarket-socket-address',
  'accept',
  'accept-encoding',
  'if-none-match',
  'range',
  'referer',
  'user-agent',
  'x-http-method-override',
  'x-random',
];

export const randomHeaders = fc.dictionary(
  fc.oneof(fc.constantFrom(...HEADER_NAMES), fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/)),
  headerValue,
  { maxKeys: 5 },
);

export interface TokenSubject {
  id: string;
  walletAddress: string;
  role: 'CLIENT' | 'AGENT';
}

const jwtSecret = () => new TextEncoder().encode(process.env.JWT_SECRET!);
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/**
 * A token for `subject` signed with the real secret whose claims are all right but one, or a token
 * whose header or signature is wrong: every way a presented token can be a lie.
 */
export const forgedToken: fc.Arbitrary<(subject: TokenSubject) => Promise<string>> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.constantFrom('sub', 'addr', 'role', 'iss', 'aud', 'exp', 'iat', 'jti'),
        fc.oneof(
          text,
          number,
          fc.constantFrom(null, true, 'ADMIN', 'AGENT', 'CLIENT', '00000000-0000-0000-0000-000000000000'),
        ),
        fc.boolean(),
      )
      .map(([name, value, drop]) => async (subject: TokenSubject) => {
        const now = Math.floor(Date.now() / 1000);
        const claims: Record<string, unknown> = {
          sub: subject.id,
          addr: subject.walletAddress,
          role: subject.role,
          iss: 'taskmarket',
          aud: 'taskmarket-api',
          iat: now,
          exp: now + 3600,
          jti: randomBytes(8).toString('hex'),
        };
        if (drop) delete claims[name];
        else claims[name] = name === 'exp' && typeof value !== 'number' ? now - 10 : value;
        return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(jwtSecret());
      }),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        { alg: 'none' },
        { alg: 'HS512' },
        { alg: 'RS256' },
        { alg: 'hs256' },
        { alg: 'HS256', crit: ['x'] },
        {},
        { alg: 'HS256', b64: false, crit: ['b64'] },
      )
      .map((header) => async (subject: TokenSubject) => {
        const now = Math.floor(Date.now() / 1000);
        const claims = {
          sub: subject.id,
          addr: subject.walletAddress,
          role: 'AGENT',
          iss: 'taskmarket',
          aud: 'taskmarket-api',
          iat: now,
          exp: now + 60,
          jti: 'x',
        };
        return `${b64(header)}.${b64(claims)}.`;
      }),
  },
  {
    weight: 1,
    arbitrary: fc.constant(async (subject: TokenSubject) =>
      new SignJWT({ sub: subject.id, addr: subject.walletAddress, role: subject.role, jti: 'j' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('taskmarket')
        .setAudience('taskmarket-api')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('x'.repeat(32))),
    ),
  },
);

/** A session cookie sealed with the real secret around something that is not a valid token, or a broken seal. */
export const forgedCookie: fc.Arbitrary<() => Promise<string>> = fc.oneof(
  anyValue.map(
    (token) => async () =>
      `taskmarket_session=${await sealData({ token }, { password: process.env.SESSION_SECRET!, ttl: 3600 })}`,
  ),
  headerValue.map((v) => async () => `taskmarket_session=${v}`),
  headerValue.map((v) => async () => v),
  fc.constant(
    async () => `taskmarket_session=${await sealData({ token: 'a.b.c' }, { password: 'y'.repeat(32), ttl: 3600 })}`,
  ),
);

/** Authorization values that are not a well-formed bearer token. */
export const badAuthorization = fc.oneof(
  headerValue,
  fc.constantFrom(
    'Bearer',
    'Bearer ',
    'Bearer  a.b.c',
    'bearer a.b.c',
    'Basic dXNlcjpwYXNz',
    'Bearer a.b',
    'Bearer a.b.c.d',
    'Bearer ..',
    'Bearer a.b.c extra',
  ),
);

// --- queries, path parameters, cursors ---

export const QUERY_KEYS = [
  'limit',
  'cursor',
  'status',
  'category',
  'tag',
  'minReward',
  'q',
  'sort',
  'mine',
  'period',
  'from',
  'to',
  'interval',
  'id',
  'role',
];

const missionCursor = fc
  .record(
    {
      s: fc.oneof(fc.constantFrom('bumped', 'reward', 'deadline', 'created'), text),
      k: fc.oneof(text, decimal, timestamp),
      i: fc.oneof(fc.uuid(), text),
    },
    { requiredKeys: [] },
  )
  .map(encodeCursorPayload);
const leaderboardCursor = fc
  .record(
    {
      v: fc.oneof(fc.constantFrom('all:earned', 'all:completed', '7d:earned', '30d:completed'), text),
      e: fc.oneof(decimal, text),
      c: fc.oneof(number, text),
      w: fc.oneof(
        fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString('hex')}`),
        text,
      ),
    },
    { requiredKeys: [] },
  )
  .map(encodeCursorPayload);
export const cursor = fc.oneof(
  missionCursor,
  leaderboardCursor,
  fc.jsonValue({ maxDepth: 2 }).map(encodeCursorPayload),
  text,
  fc.base64String({ maxLength: 80 }),
);

export const queryValue = fc.oneof(
  text,
  decimal,
  timestamp,
  cursor,
  fc.constantFrom(
    'OPEN',
    'open,accepted',
    'OPEN,,',
    'COMPLETED,OPEN,ACCEPTED,SUBMITTED,CONTESTED,DISPUTED,CANCELLED,OPEN',
    'client',
    'agent',
    'reward',
    'deadline',
    'created',
    'bumped',
    '7d',
    '30d',
    'all',
    'earned',
    'completed',
    'day',
    'week',
    '2026-01-01',
    '2025-01-01',
    '0',
    '100',
    '101',
    '1.5',
  ),
);

/** A query string: known and unknown keys, repeated keys, raw bytes no encoder would produce. */
export const queryString = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), text), queryValue), { maxLength: 6 })
      .map((pairs) => new URLSearchParams(pairs).toString()),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '%',
      '%zz',
      '%00',
      'limit=%FF',
      'a=%ED%A0%80',
      '&&&',
      '=',
      'limit',
      'limit=1&limit=2',
      'q=%00',
      'cursor=%2B%2F',
    ),
  },
);

export const uuidLike = fc.oneof(
  fc.uuid(),
  fc.constantFrom(
    '00000000-0000-0000-0000-000000000000',
    'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
    '{00000000-0000-0000-0000-000000000000}',
    '00000000000000000000000000000000',
  ),
);

// --- multipart ---

export interface PartSpec {
  name: string;
  filename?: string;
  contentType?: string;
  /** Replaces the whole Content-Disposition value. */
  disposition?: string;
  content: Uint8Array;
}

const fileContent = fc.oneof(
  fc.constant(0).map(() => png()),
  fc.constant(0).map(() => pdf()),
  fc.string({ maxLength: 200 }).map((s) => Buffer.from(s)),
  fc.uint8Array({ maxLength: 600 }).map((b) => Buffer.from(b)),
  fc
    .constantFrom(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '<!doctype html><script>alert(1)</script>',
      '{"ok":true}',
      '{"ok":',
      'a\u0000b',
      'MZ\x90\x00',
      '#!/bin/sh\nrm -rf /\n',
      '',
    )
    .map((s) => Buffer.from(s)),
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.concat([png().subarray(0, 16), Buffer.from(b)])),
);

const filePart = fc.record({
  name: fc.oneof(
    { weight: 5, arbitrary: fc.constant('files') },
    { weight: 1, arbitrary: fc.constantFrom('file', 'note', 'title', '', 'files[]') },
  ),
  filename: fc.oneof(
    fc.constantFrom(
      'a.png',
      'report.pdf',
      'notes.txt',
      'data.json',
      'x.svg',
      'index.html',
      '../../etc/passwd',
      'a"b.png',
      'C:\\boot.ini',
      '',
      '.',
      '..',
      'CON',
      'a\u0000.png',
      '🦄.png',
      'x'.repeat(300),
    ),
    text,
  ),
  contentType: fc.option(
    fc.constantFrom(
      'image/png',
      'image/jpeg',
      'application/pdf',
      'text/plain',
      'text/markdown',
      'text/csv',
      'application/json',
      'text/html',
      'image/svg+xml',
      'application/octet-stream',
      'application/x-msdownload',
      'text/plain; charset=utf-8',
      'IMAGE/PNG',
      'foo',
      '',
    ),
    { nil: undefined },
  ),
  disposition: fc.option(
    fc.constantFrom(
      'form-data; name=files; filename=a.png',
      'form-data; name="files"; filename*=UTF-8\'\'%E2%82%AC.png',
      'form-data; name="files"; filename="a.png"; filename="b.png"',
      'attachment; filename="a.png"',
      'form-data',
      'form-data; name="files"; filename',
      '',
    ),
    { nil: undefined },
  ),
  content: fileContent,
});

const fieldPart = (names: string[]) =>
  fc.record({
    name: fc.oneof(fc.constantFrom(...names), text),
    content: fc
      .oneof(text, decimal, timestamp, fc.uint8Array({ maxLength: 100 }))
      .map((v) => (typeof v === 'string' ? Buffer.from(v) : Buffer.from(v))),
  });

export interface MultipartCase {
  parts: PartSpec[];
  boundary: string;
  /** How the bytes are spoiled after being put together. */
  damage:
    | 'none'
    | 'truncate'
    | 'no-closing'
    | 'lf-only'
    | 'preamble'
    | 'epilogue'
    | 'garbage-after-boundary'
    | 'long-header';
  cut: number;
}

/** A multipart case: fields (for `fieldNames`) and files, a boundary, and a way to spoil the bytes. */
export const multipart = (fieldNames: string[], validFields: fc.Arbitrary<Record<string, string>>) =>
  fc
    .record({
      valid: validFields,
      extra: fc.array(fieldPart(fieldNames), { maxLength: 3 }),
      files: fc.array(filePart, { maxLength: 4 }),
      boundary: fc.oneof(
        { weight: 5, arbitrary: fc.constant(`fuzz${randomBytes(6).toString('hex')}`) },
        { weight: 1, arbitrary: fc.constantFrom('x', 'a b', '----', '"quoted"', 'b'.repeat(70)) },
      ),
      damage: fc.oneof(
        { weight: 6, arbitrary: fc.constant('none' as const) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'truncate',
            'no-closing',
            'lf-only',
            'preamble',
            'epilogue',
            'garbage-after-boundary',
            'long-header',
          ),
        },
      ),
      cut: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .map(
      ({ valid, extra, files, boundary, damage, cut }): MultipartCase => ({
        parts: [
          ...Object.entries(valid).map(([name, value]) => ({ name, content: Buffer.from(value) })),
          ...extra,
          ...files,
        ] as PartSpec[],
        boundary: boundary.replace(/"/g, ''),
        damage: damage as MultipartCase['damage'],
        cut,
      }),
    );

/** The body bytes and Content-Type of a multipart case. */
export function encodeMultipart(c: MultipartCase): { body: Buffer; contentType: string } {
  const eol = c.damage === 'lf-only' ? '\n' : '\r\n';
  const chunks: Buffer[] = [];
  if (c.damage === 'preamble') chunks.push(Buffer.from(`preamble text${eol}`));
  for (const part of c.parts) {
    const disposition =
      part.disposition ??
      `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.contentType === undefined ? '' : `Content-Type: ${part.contentType}${eol}`;
    const padding = c.damage === 'garbage-after-boundary' ? ' junk' : '';
    const long = c.damage === 'long-header' ? `X-Pad: ${'p'.repeat(17 * 1024)}${eol}` : '';
    chunks.push(
      Buffer.from(
        `--${c.boundary}${padding}${eol}Content-Disposition: ${disposition}${eol}${type}${long}${eol}`,
        'utf8',
      ),
    );
    chunks.push(Buffer.from(part.content));
    chunks.push(Buffer.from(eol));
  }
  if (c.damage !== 'no-closing') chunks.push(Buffer.from(`--${c.boundary}--${eol}`));
  if (c.damage === 'epilogue') chunks.push(Buffer.from('epilogue'));
  let body = Buffer.concat(chunks);
  if (c.damage === 'truncate') body = body.subarray(0, Math.floor(body.length * c.cut));
  return {
    body,
    contentType: `multipart/form-data; boundary=${c.boundary.includes(' ') ? `"${c.boundary}"` : c.boundary}`,
  };
}

// --- a valid body with one field mutated ---

export type Mutation<T extends Record<string, unknown>> =
  | { kind: 'valid'; body: T }
  | { kind: 'set'; body: T; field: string; value: unknown }
  | { kind: 'drop'; body: T; field: string }
  | { kind: 'extra'; body: T; field: string; value: unknown }
  | { kind: 'replace'; value: unknown };

/**
 * `valid` with one field given another value (from `values` for that field, or anything), dropped,
 * or joined by an unknown one; sometimes the whole body is something else, sometimes it is valid.
 */
export function oneFieldMutated<T extends Record<string, unknown>>(
  valid: fc.Arbitrary<T>,
  values: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<Mutation<T>> {
  const fields = Object.keys(values);
  return fc.oneof(
    { weight: 2, arbitrary: valid.map((body) => ({ kind: 'valid' as const, body })) },
    {
      weight: 10,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...fields))
        .chain(([body, field]) =>
          fc
            .oneof({ weight: 3, arbitrary: values[field]! }, { weight: 1, arbitrary: anyValue })
            .map((value) => ({ kind: 'set' as const, body, field, value })),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...fields))
        .map(([body, field]) => ({ kind: 'drop' as const, body, field })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...FIELDS), anyValue)
        .map(([body, field, value]) => ({ kind: 'extra' as const, body, field, value })),
    },
    { weight: 1, arbitrary: anyValue.map((value) => ({ kind: 'replace' as const, value })) },
  );
}

/** The body a mutation stands for (JSON.stringify drops undefined, so "set to undefined" is a drop). */
export function applyMutation<T extends Record<string, unknown>>(m: Mutation<T>): unknown {
  switch (m.kind) {
    case 'valid':
      return m.body;
    case 'set':
    case 'extra':
      return Object.defineProperty({ ...m.body }, m.field, {
        value: m.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    case 'drop': {
      const { [m.field]: _dropped, ...rest } = m.body;
      return rest;
    }
    case 'replace':
      return m.value;
  }
}
