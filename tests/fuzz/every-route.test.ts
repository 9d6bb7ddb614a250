// Every handler of app/api, each with its own share of cases (issue 7): random credentials (real,
// forged, operator secrets), path parameters, query strings, headers, and bodies — any JSON, a valid
// body of that endpoint with one field mutated, raw text and bytes under any Content-Type, and
// multipart. Whatever comes in: no 5xx, errors in the documented shape, and a refused request (or
// any read) leaves the data exactly as it was. Escrow mode, as in production.
import { execSync } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { POST as createRoute } from '@/app/api/missions/route';
import { useTestEnvironment } from '../support/environment';
import { fundTask } from '../support/escrow';
import { missionInput } from '../support/missions';
import { png, upload } from '../support/multipart';
import {
  applyMutation,
  CONTENT_TYPES,
  encodeMultipart,
  FIELDS,
  jsonText,
  multipart,
  oneFieldMutated,
  queryString,
  randomHeaders,
  rawBody,
  text,
  uuidLike,
} from '../support/fuzz/arbitraries';
import * as bodies from '../support/fuzz/bodies';
import { casesFor, runs, timeoutFor } from '../support/fuzz/budget';
import { countStatus, expectDocumented, printStatusCounts, stateOf } from '../support/fuzz/oracle';
import {
  applyCredential,
  credential,
  type Credential,
  newUser,
  send,
  trySet,
  type User,
} from '../support/fuzz/parties';
import { MODULE_COUNT, ROUTES, type FuzzRoute } from '../support/fuzz/routes';

useTestEnvironment({
  NONCE_RATE_LIMIT_PER_MINUTE: '100000000',
  VERIFY_RATE_LIMIT_PER_MINUTE: '100000000',
  WRITE_RATE_LIMIT_PER_MINUTE: '100000000',
});

// --- the world the cases act on: a client with a funded OPEN mission (one attachment), an agent ---

type Party = Awaited<ReturnType<typeof newUser>>;
const world = {} as { client: Party; agent: Party; missionId: string; fileId: string; creates: number; claims: number };

async function newMission(): Promise<void> {
  // Creating is limited to 20 an hour per client (fixed): a client past 18 is replaced by a new one.
  if (++world.creates > 18) return newClient();
  const taskId = await fundTask(world.client.wallet, 25_000_000n);
  const input = missionInput({ onChainTaskId: String(taskId) });
  const fields = Object.fromEntries(
    Object.entries(input).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]),
  );
  const created = await upload(createRoute, {
    token: world.client.token,
    fields,
    files: [{ filename: 'brief.png', contentType: 'image/png', content: png() }],
  });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  world.missionId = created.body.id;
  world.fileId = created.body.attachments[0].id;
}

async function newClient(): Promise<void> {
  world.client = await newUser('CLIENT');
  world.creates = 0;
  await newMission();
}

beforeAll(async () => {
  world.agent = await newUser('AGENT');
  world.claims = 0;
  await newClient();
}, 120_000);

const users = (): Record<string, User> => ({ client: world.client, agent: world.agent });
const watched = () => ({ missions: [world.missionId], users: [world.client.id, world.agent.id] });
let lastState: string | undefined;

/**
 * Keeps the world usable after a case: fixed limits (create 20/h, claim 5/min) met with fresh users, a changed fixture
 * replaced.
 */
async function afterCase(route: FuzzRoute, c: Case, status: number): Promise<void> {
  // A forged token is signed with the real secret: when its one changed claim does not matter
  // (a new jti, say), it is that party's credential, and its changes are that party's.
  const as = 'as' in c.credential ? c.credential.as : undefined;
  if (route.path === '/api/missions' && route.method === 'POST' && as === 'client' && ++world.creates > 18)
    return newClient();
  if (route.path === '/api/agents/me/claim' && as === 'agent' && ++world.claims >= 4) {
    world.agent = await newUser('AGENT');
    world.claims = 0;
  }
  if (status >= 300 || route.method === 'GET') return;
  if (route.path === '/api/auth/register-agent' && as === 'client') return newClient();
  if (route.path.startsWith('/api/missions') || route.path.startsWith('/api/admin')) await newMission();
}

// --- the cases ---

interface Case {
  credential: Credential;
  params: { id: string; address: string; fileId: string; path: string };
  query?: string;
  body:
    | { kind: 'none' }
    | { kind: 'bytes'; data: string | Uint8Array; contentType?: string }
    | { kind: 'multipart'; parts: Parameters<typeof encodeMultipart>[0] };
  headers?: Record<string, string>;
}

// The body each endpoint reads, valid but for one field.
const nearValid: Record<string, fc.Arbitrary<unknown>> = {
  'POST /api/missions': oneFieldMutated(bodies.validCreate, bodies.createValues).map(applyMutation),
  'PATCH /api/account/profile': oneFieldMutated(bodies.validProfile, bodies.profileValues).map(applyMutation),
  'POST /api/auth/nonce': oneFieldMutated(bodies.validNonce, bodies.nonceValues).map(applyMutation),
  'POST /api/auth/verify': oneFieldMutated(bodies.validVerify, bodies.verifyValues).map(applyMutation),
  'POST /api/missions/{id}/submit': oneFieldMutated(bodies.validNote, bodies.noteValues).map(applyMutation),
  'POST /api/missions/{id}/contest': oneFieldMutated(bodies.validReason, bodies.reasonValues).map(applyMutation),
  'POST /api/missions/{id}/bump': oneFieldMutated(bodies.validBump, bodies.bumpValues).map(applyMutation),
  'POST /api/admin/missions/{id}/resolve': oneFieldMutated(bodies.validResolve, bodies.resolveValues).map(
    applyMutation,
  ),
};

const formFields: Record<string, fc.Arbitrary<Record<string, string>>> = {
  'POST /api/missions': bodies.validCreate.map((b) => ({ ...b, tags: b.tags.join(',') })),
  'POST /api/missions/{id}/submit': bodies.validNote,
  'POST /api/missions/{id}/contest': bodies.validReason,
  'POST /api/missions/{id}/bump': bodies.validBump as fc.Arbitrary<Record<string, string>>,
};

function bodyFor(route: FuzzRoute): fc.Arbitrary<Case['body']> {
  const key = `${route.method} ${route.path}`;
  const json = (t: fc.Arbitrary<string>) =>
    fc
      .tuple(
        t,
        fc.oneof(
          { weight: 6, arbitrary: fc.constant('application/json') },
          { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
        ),
      )
      .map(([data, contentType]) => ({ kind: 'bytes' as const, data, contentType }));
  const options: fc.WeightedArbitrary<Case['body']>[] = [
    { weight: 2, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 4, arbitrary: json(jsonText) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(rawBody, fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined }))
        .map(([data, contentType]) => ({ kind: 'bytes' as const, data, contentType })),
    },
    {
      weight: 1,
      arbitrary: multipart(FIELDS, fc.constant({})).map((parts) => ({ kind: 'multipart' as const, parts })),
    },
  ];
  if (nearValid[key]) options.push({ weight: 8, arbitrary: json(nearValid[key].map((v) => JSON.stringify(v) ?? '')) });
  if (formFields[key])
    options.push({
      weight: 4,
      arbitrary: multipart(FIELDS, formFields[key]).map((parts) => ({ kind: 'multipart' as const, parts })),
    });
  return fc.oneof(...options);
}

const caseFor = (route: FuzzRoute): fc.Arbitrary<Case> =>
  fc.record(
    {
      credential: credential(['client', 'agent'], route.path.includes('admin') || route.path.includes('cron') ? 12 : 1),
      params: fc.record({
        id: fc.oneof(
          { weight: 4, arbitrary: fc.constant('fixture') },
          { weight: 1, arbitrary: uuidLike },
          { weight: 1, arbitrary: text },
        ),
        address: fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom('agent', 'client') },
          { weight: 2, arbitrary: bodies.addressLike },
          { weight: 1, arbitrary: text },
        ),
        fileId: fc.oneof(
          { weight: 3, arbitrary: fc.constant('fixture') },
          { weight: 1, arbitrary: uuidLike },
          { weight: 1, arbitrary: text },
        ),
        path: fc.oneof(
          text,
          fc.array(text, { maxLength: 4 }).map((parts) => parts.join('/')),
        ),
      }),
      query: queryString,
      body: bodyFor(route),
      headers: randomHeaders,
    },
    { requiredKeys: ['credential', 'params', 'body'] },
  );

async function run(route: FuzzRoute, c: Case): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(c.headers ?? {})) trySet(headers, name, value);
  await applyCredential(headers, c.credential, users());
  let body: string | Uint8Array | undefined;
  if (c.body.kind === 'bytes') {
    body = c.body.data;
    if (c.body.contentType !== undefined) trySet(headers, 'content-type', c.body.contentType);
  } else if (c.body.kind === 'multipart') {
    const encoded = encodeMultipart(c.body.parts);
    body = encoded.body;
    headers.set('content-type', encoded.contentType);
  }
  const fixtures: Record<string, string> = { id: world.missionId, fileId: world.fileId };
  const params: Record<string, string> = {};
  for (const name of route.params) {
    const value = c.params[name];
    params[name] =
      value === 'fixture'
        ? fixtures[name]!
        : name === 'address' && (value === 'agent' || value === 'client')
          ? users()[value]!.walletAddress
          : value;
  }
  const watch = watched();
  const before = (lastState ??= await stateOf(watch));
  const response = await send(route.handler, {
    method: route.method,
    path: route.path.replace(/\{(\w+)\}/g, (_, name) =>
      encodeURIComponent((params[name] ?? '').replace(/[\ud800-\udfff]/gu, '\ufffd')),
    ),
    query: c.query,
    headers,
    body,
    params,
  });
  const label = `${route.method} ${route.path} ${JSON.stringify({ ...c, credential: c.credential.kind })}`.slice(
    0,
    600,
  );
  const { status } = await expectDocumented(response, label, { binaryOk: route.path.endsWith('{fileId}') });
  countStatus(`${route.method} ${route.path}`, status);
  // A refusal changes nothing; neither does any read (the sweep, a GET for Vercel Cron, is a write).
  // Nothing else runs in this worker, so the state after one case is the state before the next.
  lastState = await stateOf(watch);
  if (status >= 400 || (route.method === 'GET' && route.path !== '/api/cron/sweep')) {
    expect(lastState, `${label} → ${status} changed the data`).toBe(before);
  }
  const ids = JSON.stringify(watched());
  await afterCase(route, c, status);
  if (JSON.stringify(watched()) !== ids) lastState = undefined;
}

afterAll(printStatusCounts);

describe('every route, any input', () => {
  test('default: the table names every route file under app/api', () => {
    const files = execSync('find app/api -name route.ts | wc -l').toString().trim();
    expect(MODULE_COUNT).toBe(Number(files));
  });

  const perRoute = casesFor('everyRoute', ROUTES.length);
  for (const route of ROUTES) {
    test(
      `behavior: ${route.method} ${route.path} — ${perRoute} cases: no 5xx, documented errors, refusals change nothing`,
      async () => {
        await fc.assert(
          fc.asyncProperty(caseFor(route), (c) => run(route, c)),
          runs(perRoute),
        );
      },
      timeoutFor(perRoute, 20),
    );
  }
});
