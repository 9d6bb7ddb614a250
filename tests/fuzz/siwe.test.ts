// Sign-in with random EIP-4361 messages (issue 7): each message is built from the grammar (optional
// scheme, statement, expiry, not-before, request id and resources; any URI, any time zone), then
// one field is mutated — to another value the grammar allows, to random text, or the line itself
// dropped, doubled or re-cased — and signed as mutated, so verify must find the fault itself.
// The oracle is docs/api.md#sign-in: the reference parser decides 400; otherwise the first rule the mutation
// breaks decides the 401 and its message; a message that breaks none signs in. A refused verify
// writes nothing and consumes nothing but the nonce the message names (when it parsed).
import { ParsedMessage } from '@spruceid/siwe-parser';
import fc from 'fast-check';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, test } from 'vitest';
import { POST as verify } from '@/app/api/auth/verify/route';
import { MAX_MESSAGE_LENGTH } from '@/lib/auth/siwe-message';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { TEST_CHAIN_ID, useTestEnvironment } from '../support/environment';
import { call } from '../support/http';
import { requestNonce, siweMessage } from '../support/wallets';
import { text } from '../support/fuzz/arbitraries';
import { casesFor, runs, timeoutFor } from '../support/fuzz/budget';
import { countStatus, expectDocumented, printStatusCounts, stateOf } from '../support/fuzz/oracle';
import { PCHARS, renderSiwe, STATEMENT_CHARS, type SiweTextFields } from '../support/siwe-grammar';

useTestEnvironment({ NONCE_RATE_LIMIT_PER_MINUTE: '100000000', VERIFY_RATE_LIMIT_PER_MINUTE: '100000000' });
afterAll(printStatusCounts);

// --- the grammar ---

type Fields = SiweTextFields;
type Field = keyof Fields;

const render = renderSiwe;

const MINUTE = 60_000;

/** RFC 3339 date-time, in any zone, with or without fractions, `offsetMs` from now. */
const dateTime = (offset: fc.Arbitrary<number>) =>
  fc
    .tuple(offset, fc.constantFrom(0, 60, 330, -300, -720, 840), fc.constantFrom(0, 3, 6, 9), fc.constantFrom('Z', 'z'))
    .map(([ms, zoneMinutes, digits, z]) => {
      const at = new Date(Date.now() + ms + zoneMinutes * MINUTE);
      const [date, time] = at.toISOString().split('T') as [string, string];
      const fraction = digits === 0 ? '' : `.${time.slice(9, 12).padEnd(digits, '0')}`;
      const sign = zoneMinutes < 0 ? '-' : '+';
      const hours = String(Math.floor(Math.abs(zoneMinutes) / 60)).padStart(2, '0');
      const minutes = String(Math.abs(zoneMinutes) % 60).padStart(2, '0');
      const zone = zoneMinutes === 0 ? z.toUpperCase() : `${sign}${hours}:${minutes}`;
      return `${date}T${time.slice(0, 8)}${fraction}${zone}`;
    });
const past = dateTime(fc.integer({ min: -365 * 24 * 60 * MINUTE, max: -2 * MINUTE }));
const future = dateTime(fc.integer({ min: 2 * MINUTE, max: 365 * 24 * 60 * MINUTE }));
const farFuture = dateTime(fc.integer({ min: 6 * MINUTE, max: 365 * 24 * 60 * MINUTE }));

const uri = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom(
    'https://app.example.com',
    'https://app.example.com/login?next=%2F',
    'urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66',
    'did:pkh:eip155:1:0xb9c5714089478a327f09197987f16f9e5d936e8a',
    'ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq',
    'http://[::1]:3000/',
    'mailto:a@b.c',
    'x:',
  ),
);

const ALLOWED_DOMAINS = [
  'app.example.com',
  'localhost:3000',
  'pr-12.app.example.com',
  'a.b.app.example.com',
  'APP.EXAMPLE.COM',
  'app.example.com:8443',
];
const OTHER_DOMAINS = [
  'evilapp.example.com',
  'app.example.com.evil.io',
  'example.com',
  'localhost:3001',
  'localhost',
  'pr-12.localhost:3000',
  '127.0.0.1:3000',
  '[::1]:3000',
  'user@app.example.com',
  'app.example.co',
];

const word = (chars: string[], min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...chars), minLength: min, maxLength: max });
const alnum = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];

/** A message as a wallet would send it, every optional part sometimes there (address and nonce come at run time). */
const validFields: fc.Arbitrary<Omit<Fields, 'address' | 'nonce'>> = fc.record({
  scheme: fc.option(fc.constantFrom('https', 'http'), { nil: undefined }),
  domain: fc.constantFrom('app.example.com', 'localhost:3000', 'pr-12.app.example.com'),
  statement: fc.option(word(STATEMENT_CHARS, 1, 80), { nil: undefined }),
  uri,
  version: fc.constant('1'),
  chainId: fc.constant(String(TEST_CHAIN_ID)),
  issuedAt: fc.oneof(past, dateTime(fc.integer({ min: -MINUTE, max: 4 * MINUTE }))),
  expirationTime: fc.option(future, { nil: undefined }),
  notBefore: fc.option(past, { nil: undefined }),
  requestId: fc.option(word(PCHARS, 0, 40), { nil: undefined }),
  resources: fc.option(fc.array(uri, { maxLength: 3 }), { nil: undefined }),
});

/** Other values the grammar allows for a field, some breaking a rule of docs/api.md#sign-in, some not. */
const otherValue: Record<Field, fc.Arbitrary<string | string[] | undefined>> = {
  scheme: fc.constantFrom('https', 'http', 'wss', 'a+b-c.d', undefined),
  domain: fc.constantFrom(...ALLOWED_DOMAINS, ...OTHER_DOMAINS),
  address: fc
    .uint8Array({ minLength: 20, maxLength: 20 })
    .map((b) => getAddress(`0x${Buffer.from(b).toString('hex')}`)),
  statement: fc.option(word(STATEMENT_CHARS, 1, 200), { nil: undefined }),
  uri,
  version: fc.constantFrom('1', '2', '0', '01'),
  chainId: fc.constantFrom('1', '8453', '84532', '0', '031337', '31338', '3133', '313370', '99999999999999999999999'),
  nonce: word(alnum, 8, 40),
  issuedAt: fc.oneof(past, farFuture),
  expirationTime: fc.oneof(past, future, fc.constant(undefined)),
  notBefore: fc.oneof(past, farFuture, fc.constant(undefined)),
  requestId: fc.option(word(PCHARS, 0, 60), { nil: undefined }),
  resources: fc.option(fc.array(uri, { maxLength: 4 }), { nil: undefined }),
};

const FIELD_NAMES = Object.keys(otherValue) as Field[];

type Mutation =
  | { kind: 'value'; field: Field; value: string | string[] | undefined }
  | { kind: 'text'; field: Field; value: string }
  | { kind: 'line'; how: 'drop' | 'double' | 'upper' | 'lower' | 'trailing-space' | 'crlf' | 'swap'; line: number }
  | {
      kind: 'signature';
      how: 'other-signer' | 'other-text' | 'random' | 'length' | '6492' | 'v';
      bytes: Uint8Array;
      length: number;
    };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .constantFrom(...FIELD_NAMES)
      .chain((field) => otherValue[field].map((value) => ({ kind: 'value' as const, field, value }))),
  },
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(...FIELD_NAMES), text)
      .map(([field, value]) => ({ kind: 'text' as const, field, value })),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('line' as const),
      how: fc.constantFrom('drop', 'double', 'upper', 'lower', 'trailing-space', 'crlf', 'swap'),
      line: fc.nat({ max: 20 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('signature' as const),
      how: fc.constantFrom('other-signer', 'other-text', 'random', 'length', '6492', 'v'),
      bytes: fc.uint8Array({ minLength: 0, maxLength: 300 }),
      length: fc.constantFrom(0, 1, 64, 66, 96, 130, 200),
    }),
  },
);

const SUFFIX_6492 = '6492649264926492649264926492649264926492649264926492649264926492';

// --- the oracle: docs/api.md#sign-in ---

const HOST_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const ENTRIES: [string, string | undefined][] = [
  ['app.example.com', undefined],
  ['localhost', '3000'],
];

/** SIWE_DOMAIN = app.example.com,localhost:3000: the entry or a subdomain of it, the port when the entry has one. */
function domainAllowed(domain: string): boolean {
  const match = /^([^:@[\]]+)(?::(\d{1,5}))?$/.exec(domain.toLowerCase());
  if (!match) return false;
  const [, host, port] = match as unknown as [string, string, string | undefined];
  if (host.length > 253 || !host.split('.').every((label) => HOST_LABEL.test(label))) return false;
  return ENTRIES.some(
    ([entry, entryPort]) =>
      (entryPort === undefined || entryPort === port) && (host === entry || host.endsWith(`.${entry}`)),
  );
}

interface Expectation {
  status: 200 | 400 | 401 | 413;
  error?: string;
  /** The nonce the request takes out of the store (when the message parsed). */
  consumes?: string;
}

function expected(
  message: string,
  signature: string,
  signatureValid: boolean,
  live: Map<string, string>,
  now: number,
): Expectation {
  // The route's body limit (16 KiB), then its schema: 0x and whole bytes, at most 4096 of them.
  if (Buffer.byteLength(JSON.stringify({ message, signature })) > 16 * 1024) return { status: 413 };
  if (!/^0x([0-9a-fA-F]{2})+$/.test(signature) || signature.length > 2 + 2 * 4096) return { status: 400 };
  let parsed: ParsedMessage;
  try {
    if (message.length > MAX_MESSAGE_LENGTH) return { status: 400 };
    parsed = new ParsedMessage(message);
  } catch {
    return { status: 400 };
  }
  const time = (value: string | undefined) => (value === undefined ? undefined : new Date(value).getTime());
  const [issuedAt, expiration, notBefore] = [
    time(parsed.issuedAt),
    time(parsed.expirationTime),
    time(parsed.notBefore),
  ];
  if ([issuedAt, expiration, notBefore].some((t) => t !== undefined && Number.isNaN(t))) return { status: 400 };
  const refuse = (error: string): Expectation => ({ status: 401, error, consumes: parsed.nonce });
  const bound = live.get(parsed.nonce);
  if (bound === undefined) return refuse('Nonce expired or unknown');
  if (bound !== parsed.address.toLowerCase()) return refuse('Nonce was issued to another address');
  if (parsed.chainId !== TEST_CHAIN_ID) return refuse('Chain ID mismatch');
  if (!domainAllowed(parsed.domain)) return refuse('Domain not allowed');
  if (expiration !== undefined && expiration <= now) return refuse('Message expired');
  if (notBefore !== undefined && notBefore > now) return refuse('Message not yet valid');
  if (issuedAt! > now + 5 * MINUTE) return refuse('Message issued in the future');
  if (!signatureValid) return refuse('Invalid signature');
  return { status: 200, consumes: parsed.nonce };
}

// --- one case ---

function mutate(fields: Fields, m: Mutation): string {
  if (m.kind === 'value') return render({ ...fields, [m.field]: m.value });
  if (m.kind === 'text') {
    // The field's text replaced as is: the grammar may or may not still hold.
    if (m.field === 'resources') return render({ ...fields, resources: [m.value] });
    return render({ ...fields, [m.field]: m.value });
  }
  const text = render(fields);
  if (m.kind === 'signature') return text;
  const lines = text.split('\n');
  const i = m.line % lines.length;
  const line = lines[i]!;
  if (m.how === 'drop') lines.splice(i, 1);
  if (m.how === 'double') lines.splice(i, 0, line);
  if (m.how === 'upper') lines[i] = line.toUpperCase();
  if (m.how === 'lower') lines[i] = line.toLowerCase();
  if (m.how === 'trailing-space') lines[i] = `${line} `;
  if (m.how === 'swap' && i + 1 < lines.length) [lines[i], lines[i + 1]] = [lines[i + 1]!, line];
  return m.how === 'crlf' ? lines.join('\r\n') : lines.join('\n');
}

async function signatureFor(
  message: string,
  wallet: ReturnType<typeof privateKeyToAccount>,
  m: Mutation,
): Promise<{ signature: string; valid: boolean | 'unknown' }> {
  const signed = await wallet.signMessage({ message });
  if (m.kind !== 'signature') return { signature: signed, valid: true };
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
  switch (m.how) {
    case 'other-signer':
      return { signature: await privateKeyToAccount(generatePrivateKey()).signMessage({ message }), valid: false };
    case 'other-text':
      return { signature: await wallet.signMessage({ message: `${message} ` }), valid: false };
    case 'random':
      return { signature: `0x${hex(m.bytes).padEnd(130, '0').slice(0, 130)}`, valid: false };
    case 'length':
      return {
        signature: `0x${hex(m.bytes)
          .padEnd(m.length * 2, 'a')
          .slice(0, m.length * 2)}`,
        valid: false,
      };
    case '6492':
      return { signature: `0x${hex(m.bytes)}${SUFFIX_6492}`, valid: false };
    case 'v': {
      // The same signature with v as 0/1 instead of 27/28, or some other byte: recovery may or may not accept it.
      const v = parseInt(signed.slice(130, 132), 16);
      const other = m.length % 2 === 0 ? v - 27 : (m.bytes[0] ?? 29);
      return {
        signature: `${signed.slice(0, 130)}${other.toString(16).padStart(2, '0')}`,
        valid: other === v || other === v - 27 ? 'unknown' : false,
      };
    }
  }
}

const send = (message: string, signature: string) =>
  verify(
    new Request('http://localhost:3000/api/auth/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SOCKET_ADDRESS_HEADER]: stampedAddress('10.8.8.8') },
      body: JSON.stringify({ message, signature }),
    }),
  );

/** Whether `nonce` is still live for `wallet`: a correct sign-in with it succeeds (and uses it up). */
async function stillLive(wallet: ReturnType<typeof privateKeyToAccount>, nonce: string): Promise<boolean> {
  const message = siweMessage(wallet, nonce);
  const response = await call(verify, { body: { message, signature: await wallet.signMessage({ message }) } });
  expect([200, 401], JSON.stringify(response.body)).toContain(response.status);
  if (response.status === 401) expect(response.body.error).toBe('Nonce expired or unknown');
  return response.status === 200;
}

describe('verify with grammar-built SIWE messages, one field mutated', () => {
  const grammarCases = casesFor('siweGrammar');
  const probeCases = casesFor('siweRefusals');
  const total = grammarCases + probeCases;
  test(
    `behavior: ${total} messages — the docs/api.md#sign-in rule the mutation breaks decides ` +
      `the answer; a refusal writes nothing and consumes only the message's nonce ` +
      `(${probeCases} of them checked by signing in with the nonces afterwards)`,
    async () => {
      let caseNo = 0;
      // Two wallets for every case: nonces are per request, and a refusal must not depend on who.
      const wallet = privateKeyToAccount(generatePrivateKey());
      const other = privateKeyToAccount(generatePrivateKey());
      // Nothing else writes in this worker: the state after one case is the state before the next.
      let lastState: string | undefined;
      await fc.assert(
        fc.asyncProperty(validFields, mutation, fc.boolean(), async (generated, m, otherNonceInMessage) => {
          caseNo += 1;
          const probe = caseNo <= probeCases;
          const issued = await requestNonce(wallet.address);
          // A live nonce bound to someone else, which a mutated message may name.
          const othersNonce = await requestNonce(other.address);
          const live = new Map([
            [issued, wallet.address.toLowerCase()],
            [othersNonce, other.address.toLowerCase()],
          ]);
          const fields: Fields = { ...generated, address: getAddress(wallet.address), nonce: issued };
          const base =
            m.kind === 'value' && m.field === 'nonce' && otherNonceInMessage ? { ...m, value: othersNonce } : m;
          const message = mutate(fields, base);
          const { signature, valid } = await signatureFor(message, wallet, base);

          const before = (lastState ??= await stateOf());
          const response = await send(message, signature);
          const now = Date.now();
          const shown = JSON.stringify(base, (_, v) => (v instanceof Uint8Array ? `bytes(${v.length})` : v));
          const where = `${shown}\n${message}\nsignature ${signature.slice(0, 80)}`;
          const answer = await expectDocumented(response, where);
          const detail = base.kind === 'value' || base.kind === 'text' ? base.field : 'how' in base ? base.how : '';
          countStatus(`verify ${base.kind} ${detail}`, answer.status);
          const expectation = expected(message, signature, valid === true, live, now);
          const body = answer.body as { error?: string };
          const got = `${answer.status} ${answer.status === 400 || answer.status === 413 ? '' : (body.error ?? '')}`;
          if (valid === 'unknown' && (expectation.status === 200 || expectation.error === 'Invalid signature')) {
            // Recovery may or may not read v = 0/1 as 27/28: either answer, but no other refusal.
            expect(['200 ', '401 Invalid signature'], where).toContain(got);
          } else {
            expect(got, where).toBe(`${expectation.status} ${expectation.error ?? ''}`);
          }
          if (answer.status === 200) {
            expect(answer.headers.get('set-cookie'), where).toMatch(/^taskmarket_session=/);
            lastState = undefined;
            return;
          }
          // Refused: no user, no session, nothing written; only the message's own nonce is gone.
          expect(answer.headers.get('set-cookie'), where).toBeNull();
          lastState = await stateOf();
          expect(lastState, `${where}: a refused verify wrote to the database`).toBe(before);
          if (!probe) return;
          lastState = undefined;
          const consumed = answer.status === 401 ? expectation.consumes : undefined;
          expect(await stillLive(wallet, issued), `${where}: the issued nonce`).toBe(consumed !== issued);
          expect(await stillLive(other, othersNonce), `${where}: another wallet's nonce`).toBe(
            consumed !== othersNonce,
          );
        }),
        runs(total),
      );
    },
    timeoutFor(total, 40),
  );
});
