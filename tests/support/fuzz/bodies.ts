// For every endpoint that reads a body: a generator of valid bodies, and for each of its fields the
// values worth trying there. `oneFieldMutated` (arbitraries.ts) turns them into near-valid bodies,
// which get past the first checks and reach the deeper rules (dates, money, chain, database).
import fc from 'fast-check';
import { decimal, HOSTILE, number, text, timestamp } from './arbitraries';

const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
const word = fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/);

export const validCreate = fc.record({
  title: fc.string({ minLength: 1, maxLength: 60 }).filter((s) => s.trim() !== ''),
  description: fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.trim() !== ''),
  category: word,
  tags: fc.uniqueArray(word, { maxLength: 4 }),
  reward: fc.bigInt({ min: 1n, max: 10n ** 12n }).map(String),
  deadline: fc.integer({ min: 1, max: 300 }).map(days),
});

const tagList = fc.oneof(
  fc.array(text, { maxLength: 12 }),
  fc.array(word, { minLength: 10, maxLength: 12 }),
  fc.constantFrom(
    ['a,b'],
    [''],
    [' '],
    ['x'.repeat(33)],
    ['UPPER', 'upper'],
    ['-leading'],
    ['ok', 1],
    'a,b',
    [null],
    [[]],
    [{}],
  ),
);

export const createValues: Record<string, fc.Arbitrary<unknown>> = {
  title: text,
  description: text,
  category: text,
  tags: tagList,
  reward: fc.oneof(decimal, number),
  deadline: fc.oneof(timestamp, number),
  onChainTaskId: fc.oneof(number, decimal, text),
};

export const validProfile = fc.record(
  {
    displayName: fc.string({ maxLength: 64 }),
    bio: fc.string({ maxLength: 300 }),
    organization: fc.string({ maxLength: 100 }),
    website: fc.webUrl({ validSchemes: ['https'] }),
    avatarUrl: fc.webUrl({ validSchemes: ['https'] }),
  },
  { requiredKeys: [] },
);

const url = fc.oneof(
  fc.webUrl({
    validSchemes: ['https', 'http', 'ftp', 'javascript', 'data'],
    withQueryParameters: true,
    withFragments: true,
  }),
  fc.constantFrom(
    'https://',
    'https://localhost',
    'https://127.0.0.1/x',
    'https://[::1]/',
    'https://exa mple.com',
    'https://xn--80ak6aa92e.com',
    'https://例え.jp',
    'HTTPS://EXAMPLE.COM',
    'https://a.b/' + 'x'.repeat(2100),
    '//example.com',
    'https:example.com',
  ),
  text.map((t) => `https://example.com/${t}`),
  text,
);

export const profileValues: Record<string, fc.Arbitrary<unknown>> = {
  displayName: text,
  bio: text,
  organization: text,
  website: url,
  avatarUrl: url,
  role: fc.constantFrom('AGENT', 'CLIENT', 'ADMIN'),
  walletAddress: fc.constantFrom('0x0000000000000000000000000000000000000000'),
  id: fc.uuid(),
};

export const validNote = fc.record({
  note: fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.trim() !== ''),
});
export const noteValues = { note: text };

export const validReason = fc.record({
  reason: fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.trim() !== ''),
});
export const reasonValues = { reason: text };

export const validBump = fc.record(
  { reward: fc.bigInt({ min: 1n, max: 10n ** 12n }).map(String) },
  { requiredKeys: [] },
);
export const bumpValues = { reward: fc.oneof(decimal, number) };

export const validResolve = fc.record(
  { outcome: fc.constantFrom('COMPLETED', 'CANCELLED'), note: fc.string({ maxLength: 100 }) },
  { requiredKeys: ['outcome'] },
);
export const resolveValues = {
  outcome: fc.oneof(fc.constantFrom('completed', 'COMPLETED ', 'DISPUTED', 'OPEN', ''), text),
  note: text,
};

const hexAddress = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString('hex')}`);
/** Addresses in every case: lower, upper, checksummed-looking, wrongly mixed, short, long, no prefix. */
export const addressLike = fc.oneof(
  hexAddress,
  hexAddress.map((a) => `0x${a.slice(2).toUpperCase()}`),
  fc
    .tuple(hexAddress, fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }))
    .map(([a, ups]) => `0x${[...a.slice(2)].map((c, i) => (ups[i] ? c.toUpperCase() : c)).join('')}`),
  hexAddress.map((a) => a.slice(0, 41)),
  hexAddress.map((a) => `${a}00`),
  hexAddress.map((a) => a.slice(2)),
  hexAddress.map((a) => `0X${a.slice(2)}`),
  fc.constantFrom(...HOSTILE),
);

export const validNonce = hexAddress.map((address) => ({ address }));
export const nonceValues = { address: addressLike };

export const validVerify = fc.record({
  message: fc.string({ minLength: 1, maxLength: 300 }),
  signature: fc.uint8Array({ minLength: 65, maxLength: 65 }).map((b) => `0x${Buffer.from(b).toString('hex')}`),
});
export const verifyValues = {
  message: fc.oneof(text, fc.constantFrom('x'.repeat(4096), 'x'.repeat(4097))),
  signature: fc.oneof(
    text,
    fc.uint8Array({ maxLength: 300 }).map((b) => `0x${Buffer.from(b).toString('hex')}`),
    fc.constantFrom('0x', '0x0', '0xzz', `0x${'ab'.repeat(4097)}`),
  ),
};
