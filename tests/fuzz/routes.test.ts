// Property-based tests over every route (issue 7): random JSON of every shape, random raw bodies
// and content types, random query strings, headers and path parameters, random multipart — zero
// 5xx, every error in the documented shape, no state change on rejection. FUZZ_RUNS (default
// 10,000) is the total number of cases of this file and siwe.test.ts together.
import { execSync } from 'node:child_process';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { useTestEnvironment } from '../support/environment';
import { fundTask } from '../support/escrow';
import { missionInput, newAgent, type Party } from '../support/missions';
import { multipartBody } from '../support/multipart';
import { call } from '../support/http';
import { POST as createRoute } from '@/app/api/missions/route';
import { newWallet, signIn } from '../support/wallets';
import { expectDocumented, snapshot } from './properties';
import { MODULE_COUNT, ROUTES, type FuzzRoute } from './routes';

useTestEnvironment({
  NONCE_RATE_LIMIT_PER_MINUTE: '100000000',
  VERIFY_RATE_LIMIT_PER_MINUTE: '100000000',
  WRITE_RATE_LIMIT_PER_MINUTE: '100000000',
});

export const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const share = (fraction: number) => Math.max(20, Math.round(TOTAL_RUNS * fraction));

let client: Party & { cookie: string };
let agent: Party;
let missionId: string;

beforeAll(async () => {
  const wallet = newWallet();
  const taskId = await fundTask(wallet, 25_000_000n);
  const signedIn = await signIn(wallet);
  client = { token: signedIn.token, id: signedIn.user.id, address: signedIn.user.walletAddress, cookie: signedIn.cookie };
  agent = await newAgent();
  const created = await call(createRoute, { token: client.token, body: missionInput({ onChainTaskId: taskId }) });
  expect(created.status).toBe(201);
  missionId = created.body.id;
});

const FIELDS = ['address', 'message', 'signature', 'title', 'description', 'category', 'tags', 'reward', 'deadline', 'onChainTaskId',
  'note', 'reason', 'outcome', 'displayName', 'bio', 'organization', 'website', 'avatarUrl', 'role', 'id', 'walletAddress', '__proto__', 'constructor'];
const QUERY_KEYS = ['limit', 'cursor', 'status', 'category', 'tag', 'minReward', 'q', 'sort', 'mine', 'period', 'from', 'to', 'interval'];
const CONTENT_TYPES = ['application/json', 'text/plain', 'multipart/form-data; boundary=xyz', 'multipart/form-data', 'application/x-www-form-urlencoded', '', 'application/json; charset=utf-16', 'image/png'];

const value = fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 10 }), { maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }));
const plausibleObject = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 8 });
const jsonText = fc.oneof(fc.jsonValue({ maxDepth: 3 }), plausibleObject).map((v) => JSON.stringify(v));

const auth = fc.constantFrom('none', 'client', 'agent', 'cookie', 'cookie-origin', 'garbage', 'cron', 'admin');
const pathParams = fc.record({
  id: fc.oneof(fc.constant('fixture'), fc.uuid(), fc.string({ maxLength: 40 })),
  address: fc.oneof(fc.constant('agent'), fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString('hex')}`), fc.string({ maxLength: 50 })),
  fileId: fc.oneof(fc.uuid(), fc.string({ maxLength: 40 })),
  path: fc.string({ maxLength: 30 }),
});
const query = fc.dictionary(fc.constantFrom(...QUERY_KEYS), fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String), fc.constantFrom('OPEN', 'client', 'agent', 'reward', '7d', 'week', '2026-01-01')), { maxKeys: 5 });

interface Case {
  route: FuzzRoute;
  auth: string;
  params: { id: string; address: string; fileId: string; path: string };
  query: Record<string, string>;
  body?: Uint8Array | string;
  contentType?: string;
  extraHeaders?: Record<string, string>;
}

async function send(c: Case): Promise<Response> {
  const headers = new Headers({ [SOCKET_ADDRESS_HEADER]: '10.9.9.9' });
  if (c.contentType) headers.set('content-type', c.contentType);
  for (const [name, v] of Object.entries(c.extraHeaders ?? {})) {
    try {
      headers.set(name, v);
    } catch {
      // A value no HTTP client can send (a header with CR/LF) never reaches the server.
    }
  }
  if (c.auth === 'client') headers.set('authorization', `Bearer ${client.token}`);
  if (c.auth === 'agent') headers.set('authorization', `Bearer ${agent.token}`);
  if (c.auth === 'garbage') headers.set('authorization', 'Bearer a.b.c');
  if (c.auth === 'cron') headers.set('authorization', `Bearer ${process.env.CRON_SECRET}`);
  if (c.auth === 'admin') headers.set('authorization', `Bearer ${process.env.ADMIN_TOKEN}`);
  if (c.auth.startsWith('cookie')) headers.set('cookie', client.cookie);
  if (c.auth === 'cookie-origin') headers.set('origin', 'https://app.example.com');
  const params: Record<string, string> = {};
  for (const name of c.route.params) {
    params[name] = name === 'id' && c.params.id === 'fixture' ? missionId : name === 'address' && c.params.address === 'agent' ? agent.address : c.params[name];
  }
  const search = new URLSearchParams(c.query).toString();
  const withBody = c.route.method !== 'GET' && c.body !== undefined;
  const request = new Request(`http://localhost:3000${c.route.path}${search ? `?${search}` : ''}`, {
    method: c.route.method,
    headers,
    body: withBody ? (typeof c.body === 'string' ? c.body : Buffer.from(c.body!)) : undefined,
  });
  return c.route.handler(request, { params: Promise.resolve(params) });
}

async function check(c: Case): Promise<void> {
  const before = c.route.method === 'GET' ? '' : await snapshot(missionId);
  const response = await send(c);
  const label = `${c.route.method} ${c.route.path} as ${c.auth}`;
  const status = response.status;
  await expectDocumented(response, label);
  if (status >= 400 && c.route.method !== 'GET') expect(await snapshot(missionId), `${label} → ${status} changed data`).toBe(before);
}

const runs = (fraction: number) => ({ numRuns: share(fraction), endOnFailure: true });

describe('every route, any input', () => {
  test('default: the table names every route file under app/api', () => {
    const files = execSync("find app/api -name route.ts | wc -l").toString().trim();
    expect(MODULE_COUNT).toBe(Number(files));
  });

  test('behavior: random JSON bodies never cause a 5xx, errors keep their shape, refusals change nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), auth, pathParams, query, jsonText, (route, a, params, q, body) =>
        check({ route, auth: a, params, query: q, body, contentType: 'application/json' }),
      ),
      runs(0.3),
    );
  });

  test('behavior: raw bodies, content types and headers of any kind', async () => {
    const headers = fc.dictionary(fc.constantFrom('idempotency-key', 'origin', 'x-forwarded-for', 'content-length', 'authorization', 'cookie'), fc.string({ maxLength: 60 }), { maxKeys: 3 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), auth, pathParams, query, fc.oneof(fc.string({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 })), fc.constantFrom(...CONTENT_TYPES), headers,
        (route, a, params, q, body, contentType, extraHeaders) => check({ route, auth: a, params, query: q, body, contentType, extraHeaders }),
      ),
      runs(0.2),
    );
  });

  test('behavior: random query strings on every GET', async () => {
    const gets = ROUTES.filter((r) => r.method === 'GET');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...gets), auth, pathParams, query, (route, a, params, q) => check({ route, auth: a, params, query: q })),
      runs(0.15),
    );
  });

  test('behavior: random multipart bodies to the upload routes', async () => {
    const uploads = ROUTES.filter((r) => /missions(\/\{id\}\/(submit|contest|bump))?$/.test(r.path) && r.method === 'POST');
    const part = fc.record({
      filename: fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('../../etc/passwd', 'a"b.png', 'x.svg', 'evil.html', 'notes.txt')),
      contentType: fc.option(fc.constantFrom('image/png', 'text/plain', 'text/html', 'image/svg+xml', 'application/json', 'application/pdf', 'foo/bar'), { nil: undefined }),
      content: fc.oneof(fc.string({ maxLength: 200 }), fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b))),
      name: fc.option(fc.constantFrom('files', 'file', 'title', 'note'), { nil: undefined }),
    });
    const fields = fc.dictionary(fc.constantFrom(...FIELDS), fc.string({ maxLength: 40 }), { maxKeys: 6 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...uploads), auth, fields, fc.array(part, { maxLength: 3 }), fc.boolean(), (route, a, f, files, truncate) => {
        const { body, contentType } = multipartBody(f, files);
        return check({ route, auth: a, params: { id: 'fixture', address: '', fileId: '', path: '' }, query: {}, body: truncate ? body.subarray(0, Math.floor(body.length / 2)) : body, contentType });
      }),
      runs(0.15),
    );
  });
});
