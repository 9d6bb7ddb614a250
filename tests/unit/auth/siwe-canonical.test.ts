// The SIWE fast path against its oracle, the reference parser: on canonical messages and on ones
// with one field or one character bent, the fast path either declines or returns exactly what
// `new ParsedMessage` returns, and never accepts a message the reference refuses.
import { ParsedMessage } from '@spruceid/siwe-parser';
import fc from 'fast-check';
import { getAddress } from 'viem';
import { createSiweMessage } from 'viem/siwe';
import { describe, expect, test } from 'vitest';
import { matchCanonicalSiwe, type SiweParts } from '@/lib/auth/siwe-canonical';
import { parseSiweMessage } from '@/lib/auth/siwe-message';
import { ApiError } from '@/lib/errors';
import { PCHARS, renderSiwe, STATEMENT_CHARS, type SiweTextFields } from '../../support/siwe-grammar';

const RUNS = Math.max(100, Number(process.env.SIWE_EQUIVALENCE_RUNS ?? 6000) || 6000);

/** The reference's fields, or undefined when it refuses (throws). */
function reference(message: string): SiweParts | undefined {
  try {
    const { uriElements: _, ...fields } = new ParsedMessage(message);
    return fields;
  } catch {
    return undefined;
  }
}

// --- messages, rendered the way the grammar lays them out ---

type Fields = SiweTextFields;
const render = renderSiwe;

const chars = (s: string) => [...s];
const ALNUM = chars('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
// Characters just outside one grammar rule or another.
const ODD = chars('"%<>\\^`{|}\r\t\n #/?[]@:é\u0000');
const word = (alphabet: string[], min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
/** Mostly from `alphabet`, sometimes with an odd character in it. */
const almost = (alphabet: string[], min: number, max: number) =>
  fc.oneof(
    { weight: 4, arbitrary: word(alphabet, min, max) },
    { weight: 1, arbitrary: word([...alphabet, ...ODD], min, max) },
  );

const checksummed = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((b) => getAddress(`0x${Buffer.from(b).toString('hex')}`));
const address = fc.oneof(
  { weight: 6, arbitrary: checksummed },
  { weight: 1, arbitrary: checksummed.map((a) => a.toLowerCase()) },
  { weight: 1, arbitrary: checksummed.map((a) => `0X${a.slice(2)}`) },
  // One letter's case flipped: a bad checksum (unless it was a digit).
  {
    weight: 2,
    arbitrary: fc.tuple(checksummed, fc.nat({ max: 39 })).map(([a, i]) => {
      const c = a[i + 2]!;
      const f = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
      return `${a.slice(0, i + 2)}${f}${a.slice(i + 3)}`;
    }),
  },
);

const uri = fc.oneof(
  { weight: 4, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom('https', 'http', 'wss', 'a+b-c.d', 'Z9'),
        almost([...ALNUM, '.', '-'], 0, 12),
        fc.option(fc.constantFrom(':', ':0', ':3000', ':65535', ':123456'), { nil: '' }),
        almost([...PCHARS, '/', '%'], 0, 16),
        fc.option(
          almost([...PCHARS, '/', '?', '%', '#'], 0, 12).map((q) => `?${q}`),
          { nil: '' },
        ),
      )
      .map((p) => `${p[0]}://${p.slice(1).join('')}`),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'https://app.example.com',
      'https://app.example.com/login?next=%2F',
      'https://app.example.com/%zz',
      'https://app.example.com/a b',
      'https://user@app.example.com/',
      'urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66',
      'did:pkh:eip155:1:0xb9c5714089478a327f09197987f16f9e5d936e8a',
      'http://[::1]:3000/',
      'http://127.0.0.1:8080/x',
      'http://1.2.3.256/',
      'mailto:a@b.c',
      'x:',
      'file:///etc',
      'https://a.b#x#y',
      'https://a.b?x#y?z/',
      'https://a.b:/',
      'https://ex%41mple.com/',
      'https://a.b/\u00e9',
      '1http://a.b',
      'https//a.b',
      '',
    ),
  },
);

const date = (min: string, max: string) => fc.date({ min: new Date(min), max: new Date(max), noInvalidDate: true });
/** Date-times both accept: any zone, with or without fractions, leap days. */
const goodDateTime = fc.oneof(
  date('1970-01-01', '2200-01-01').map((d) => d.toISOString()),
  fc
    .tuple(
      date('1970-01-01', '2200-01-01'),
      fc.constantFrom('', '.5', '.123456789'),
      fc.constantFrom('Z', '+00:00', '-05:30', '+23:59'),
    )
    .map(([d, frac, zone]) => `${d.toISOString().slice(0, 19)}${frac}${zone}`),
  fc.constantFrom('2024-02-29T12:00:00Z', '2000-02-29T00:00:00Z', '2026-12-31T23:59:60Z', '0000-01-01T00:00:00Z'),
);
/** Mostly `usual`, sometimes one of `odd`. */
const mostly = (usual: string[], odd: string[]) =>
  fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...usual) }, { weight: 1, arbitrary: fc.constantFrom(...odd) });
/**
 * Date-times around the edges: days the month lacks (Feb 29 of a common year, Feb 30, Apr 31), and
 * components just outside the grammar or the reference's ISO-8601 check (month 13, hour 24, second
 * 61, lower-case t and z, a bare dot, a short offset).
 */
const oddDateTime = fc
  .tuple(
    fc.constantFrom('2024', '2026', '1900', '2000', '2100', '0000', '9999'),
    fc.constantFrom('01', '02', '03', '04', '06', '09', '11', '12', '00', '13'),
    fc.constantFrom('01', '28', '29', '30', '31', '00', '32'),
    mostly(['T'], ['t', ' ', 'TT']),
    mostly(['00', '09', '23'], ['24', '1', '99']),
    mostly(['00', '59'], ['60', '5']),
    mostly(['00', '59', '60'], ['61', '6']),
    mostly(['', '.5', '.123456789'], ['.', ',5', '.5.5']),
    mostly(['Z', '+00:00', '-05:30', '+23:59'], ['z', '+24:00', '-00:60', '', '+0100', 'ZZ']),
  )
  .map(([y, mo, d, t, h, mi, s, frac, zone]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${frac}${zone}`);

/**
 * Messages a wallet writes: every field within the fast path's language (statement forms, zones, leap days, ports,
 * query strings).
 */
const canonical: fc.Arbitrary<Fields> = fc.record(
  {
    scheme: fc.constantFrom('https', 'http', 'wss', 'a+b-c.d'),
    domain: fc.constantFrom(
      'app.example.com',
      'localhost:3000',
      '127.0.0.1',
      '127.0.0.1:8080',
      '1.2.3.256',
      '1.2.3.4.5',
      'pr-12.app.example.com',
      'APP.EXAMPLE.COM',
      'xn--bcher-kva.example',
    ),
    address: checksummed,
    statement: fc.oneof(word(STATEMENT_CHARS, 1, 60), fc.constant(''), fc.constant('URI: https://app.example.com')),
    uri: fc.webUrl({ withQueryParameters: true, withFragments: true }),
    version: fc.constant('1'),
    chainId: fc.oneof(fc.nat().map(String), fc.constantFrom('08453', '0', '99999999999999999999')),
    nonce: word(ALNUM, 8, 32),
    issuedAt: goodDateTime,
    expirationTime: goodDateTime,
    notBefore: goodDateTime,
    requestId: fc.oneof(word(PCHARS, 0, 20), fc.constantFrom('%20', 'a%2Fb', 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6')),
    resources: fc.array(fc.webUrl({ withQueryParameters: true, withFragments: true }), { maxLength: 3 }),
  },
  { requiredKeys: ['domain', 'address', 'uri', 'version', 'chainId', 'nonce', 'issuedAt'] },
);

/** For each field, values around the edge of the grammar and of the fast path's language. */
const otherValue: { [K in keyof Fields]-?: fc.Arbitrary<Fields[K]> } = {
  scheme: fc.option(fc.constantFrom('HTTPS', '1x', 'h t', '', 'a_b'), { nil: undefined }),
  domain: fc.oneof(
    fc.constantFrom(
      '...',
      '-',
      'a:',
      'a:123456',
      'a:99999',
      '[::1]:3000',
      'user@host',
      'user:pw@host',
      'ex%41mple.com',
      'a_b.com',
      '',
      'host/path',
      'a b',
    ),
    almost([...ALNUM, '.', '-', ':'], 1, 20),
  ),
  address,
  statement: fc.option(
    fc.oneof(almost(STATEMENT_CHARS, 0, 60), fc.constantFrom('a\nb', ' ', 'tab\there', 'quote"d', '100%')),
    { nil: undefined },
  ),
  uri,
  version: fc.constantFrom('2', '01', '', '1 ', 'v1'),
  chainId: fc.constantFrom('', '-1', '1.5', '0x1', '9'.repeat(400), ' 1', '1a'),
  nonce: almost(ALNUM, 0, 12),
  issuedAt: oddDateTime,
  expirationTime: fc.option(oddDateTime, { nil: undefined }),
  notBefore: fc.option(oddDateTime, { nil: undefined }),
  requestId: fc.option(almost([...PCHARS, '%', 'A', 'f', '0'], 0, 20), { nil: undefined }),
  resources: fc.option(fc.array(uri, { minLength: 1, maxLength: 3 }), { nil: undefined }),
};
const FIELD_NAMES = Object.keys(otherValue) as (keyof Fields)[];

type Bend =
  | { how: 'none' }
  | { how: 'field'; field: keyof Fields; value: unknown }
  | { how: 'replace' | 'insert' | 'delete'; at: number; char: string }
  | {
      how: 'crlf' | 'final-lf' | 'drop-line' | 'double-line' | 'swap-lines' | 'trailing-space' | 'upper' | 'lower';
      at: number;
    };
const bend: fc.Arbitrary<Bend> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ how: 'none' as const }) },
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(...FIELD_NAMES)
      .chain((field) =>
        (otherValue[field] as fc.Arbitrary<unknown>).map((value) => ({ how: 'field' as const, field, value })),
      ),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      how: fc.constantFrom('replace' as const, 'insert' as const, 'delete' as const),
      at: fc.nat(),
      char: fc.constantFrom(...ODD, ...chars('aZ09.-x')),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      how: fc.constantFrom(
        'crlf' as const,
        'final-lf' as const,
        'drop-line' as const,
        'double-line' as const,
        'swap-lines' as const,
        'trailing-space' as const,
        'upper' as const,
        'lower' as const,
      ),
      at: fc.nat(),
    }),
  },
);

function apply(f: Fields, b: Bend): string {
  if (b.how === 'field') return render({ ...f, [b.field]: b.value });
  const text = render(f);
  if (b.how === 'none') return text;
  if (b.how === 'crlf') return text.replaceAll('\n', '\r\n');
  if (b.how === 'final-lf') return `${text}\n`;
  if (b.how === 'replace' || b.how === 'insert' || b.how === 'delete') {
    const i = b.at % (text.length + 1);
    const rest = b.how === 'insert' ? text.slice(i) : text.slice(i + 1);
    return `${text.slice(0, i)}${b.how === 'delete' ? '' : b.char}${rest}`;
  }
  const lines = text.split('\n');
  const i = b.at % lines.length;
  const line = lines[i]!;
  if (b.how === 'drop-line') lines.splice(i, 1);
  if (b.how === 'double-line') lines.splice(i, 0, line);
  if (b.how === 'swap-lines' && i + 1 < lines.length) [lines[i], lines[i + 1]] = [lines[i + 1]!, line];
  if (b.how === 'trailing-space') lines[i] = `${line} `;
  if (b.how === 'upper') lines[i] = line.toUpperCase();
  if (b.how === 'lower') lines[i] = line.toLowerCase();
  return lines.join('\n');
}

describe('matchCanonicalSiwe', () => {
  test(
    `behavior: on ${RUNS} generated messages, canonical or bent, it declines or agrees with ` + `the reference exactly`,
    () => {
      const seen = { fast: 0, reference: 0, both: 0 };
      fc.assert(
        fc.property(canonical, bend, (f, b) => {
          const message = apply(f, b);
          const fast = matchCanonicalSiwe(message);
          const ref = reference(message);
          if (ref) seen.reference += 1;
          if (fast) seen.fast += 1;
          if (fast === undefined) return;
          // Accepting what the reference refuses, or reading a field differently, is the bug this guards against.
          expect(ref, 'the fast path accepted a message the reference refuses').toBeDefined();
          expect(fast).toStrictEqual(ref);
          seen.both += 1;
        }),
        { numRuns: RUNS },
      );
      // Not vacuous: the generators reach the fast path's language often, and the fast path takes most of what the
      // reference accepts.
      expect(seen.fast).toBeGreaterThan(RUNS * 0.1);
      expect(seen.fast).toBeGreaterThan(seen.reference * 0.5);
    },
  );

  test('default: takes every message viem writes with a web URI, statement or not, with every optional field', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            scheme: fc.constantFrom('https', 'http'),
            domain: fc.constantFrom('app.example.com', 'localhost:3000', '127.0.0.1:8080', 'pr-12.app.example.com'),
            address: checksummed,
            statement: word(STATEMENT_CHARS, 1, 80),
            uri: fc.webUrl({ withQueryParameters: true, withFragments: true }),
            chainId: fc.nat(),
            nonce: word(ALNUM, 8, 32),
            issuedAt: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
            expirationTime: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
            notBefore: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
            requestId: word(PCHARS, 1, 20),
            resources: fc.array(fc.webUrl(), { maxLength: 3 }),
          },
          { requiredKeys: ['domain', 'address', 'uri', 'chainId', 'nonce', 'issuedAt'] },
        ),
        (f) => {
          const message = createSiweMessage({ ...f, address: f.address as `0x${string}`, version: '1' });
          const fast = matchCanonicalSiwe(message);
          expect(fast, message).toBeDefined();
          expect(fast).toStrictEqual(reference(message));
        },
      ),
      { numRuns: 500 },
    );
  });

  const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
  const BASE: Fields = {
    domain: 'app.example.com',
    address: ADDRESS,
    uri: 'https://app.example.com',
    version: '1',
    chainId: '8453',
    nonce: 'a1b2c3d4e5f6a7b8',
    issuedAt: '2026-11-22T10:00:00Z',
  };
  const base = render(BASE);
  const refusal = (message: string) => {
    try {
      parseSiweMessage(message);
    } catch (error) {
      return error as ApiError;
    }
    throw new Error('parsed');
  };

  test.each([
    ['a bad EIP-55 checksum', base.replace(ADDRESS, ADDRESS.replace('f39Fd', 'f39FD')), 'invalid EIP-55 address'],
    ['a lower-case address', base.replace(ADDRESS, ADDRESS.toLowerCase()), 'invalid EIP-55 address'],
    ['an 0X prefix', base.replace('0xf39', '0Xf39'), 'invalid EIP-55 address'],
    ['February 30', render({ ...BASE, issuedAt: '2026-02-30T10:00:00Z' }), 'invalid issued-at date time semantics'],
    [
      'February 29 of a common year',
      render({ ...BASE, expirationTime: '2026-02-29T10:00:00Z' }),
      'invalid expiration-time date time semantics',
    ],
    ['a URI with a space', render({ ...BASE, uri: 'https://app.example.com/a b' }), undefined],
    ['CRLF line endings', base.replaceAll('\n', '\r\n'), undefined],
    ['a final line break', `${base}\n`, undefined],
    ['a statement with a line break', render({ ...BASE, statement: 'Sign in\nplease' }), undefined],
    ['a statement with a character outside the grammar', render({ ...BASE, statement: '100% safe' }), undefined],
    ['a request id with a broken percent escape', render({ ...BASE, requestId: 'a%zz' }), undefined],
    ['a chain id the reference reads as Infinity', render({ ...BASE, chainId: '9'.repeat(400) }), 'Invalid number.'],
    ['version 2', render({ ...BASE, version: '2' }), 'invalid version'],
    ['a short nonce', render({ ...BASE, nonce: 'abc123' }), 'invalid nonce'],
  ])("error: %s is declined by the fast path and refused with the reference's reason", (_name, message, reason) => {
    expect(matchCanonicalSiwe(message)).toBeUndefined();
    expect(reference(message)).toBeUndefined();
    const error = refusal(message);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    // The very words the reference throws, as before the fast path existed.
    let thrown = '';
    try {
      new ParsedMessage(message);
    } catch (e) {
      thrown = (e as Error).message.split('\n')[0]!.slice(0, 200);
    }
    expect(error.details).toEqual([thrown]);
    if (reason !== undefined) expect(thrown).toContain(reason);
  });

  test.each([
    ['lower-case t and z in a date', render({ ...BASE, issuedAt: '2026-11-22t10:00:00z' })],
    ['a URN as the URI', render({ ...BASE, uri: 'urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66' })],
    ['userinfo in the domain', render({ ...BASE, domain: 'user@app.example.com' })],
    ['an IPv6 literal in the URI', render({ ...BASE, uri: 'http://[::1]:3000/' })],
    ['an empty port', render({ ...BASE, domain: 'app.example.com:' })],
  ])('behavior: %s is declined by the fast path, and the reference still accepts it', (_name, message) => {
    expect(matchCanonicalSiwe(message)).toBeUndefined();
    expect(reference(message)).toBeDefined();
    expect(parseSiweMessage(message).nonce).toBe(BASE.nonce);
  });

  test.each([
    ['no statement', BASE],
    ['the empty statement (three blank lines)', { ...BASE, statement: '' }],
    ['a statement that reads like the URI line', { ...BASE, statement: 'URI: https://evil.example' }],
    ['a leap day and a leap second', { ...BASE, issuedAt: '2024-02-29T23:59:60.5+05:30' }],
    [
      'a scheme, a port and every optional field',
      {
        ...BASE,
        scheme: 'https',
        domain: 'localhost:3000',
        expirationTime: '2026-11-22T11:00:00.000Z',
        notBefore: '2026-11-22T09:00:00-01:00',
        requestId: '',
        resources: [],
      },
    ],
    ['resources with queries and fragments', { ...BASE, resources: ['ipfs://bafybei/x?y=%2F#z', 'https://a.b:8443/'] }],
  ])('default: reads %s exactly as the reference does', (_name, f) => {
    const message = render(f);
    const fast = matchCanonicalSiwe(message);
    expect(fast).toBeDefined();
    expect(fast).toStrictEqual(reference(message));
  });

  test('behavior: a leap second parses, then fails the date conversion on either path alike', () => {
    const error = refusal(render({ ...BASE, issuedAt: '2026-12-31T23:59:60Z' }));
    expect(error.details).toEqual(['issuedAt: not a valid date']);
  });
});
