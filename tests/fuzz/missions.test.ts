// The mission endpoints in depth (issue 7), in bookkeeping mode: every action on a mission in every
// state, by every party, with near-valid bodies as JSON or multipart; creates with one field
// mutated; multipart bodies spoiled byte by byte; profile patches. Checked precisely: a refused
// request leaves the mission row, its events, contests and files, the users, every table's row
// count (files and blobs included) and the upload spool exactly as they were; a create refused
// leaves the caller's missions count as it was; and a request that succeeds was one the
// transition table allows, with the outcome the table names.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PATCH as patchProfile } from '@/app/api/account/profile/route';
import { POST as resolveRoute } from '@/app/api/admin/missions/[id]/resolve/route';
import { GET as fileRoute } from '@/app/api/missions/[id]/files/[fileId]/route';
import { GET as missionRoute } from '@/app/api/missions/[id]/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { call } from '../support/http';
import { isolatedDatabase } from '../support/isolated-database';
import { missionInput, routes } from '../support/missions';
import { png, upload } from '../support/multipart';
import {
  applyMutation,
  encodeMultipart,
  FIELDS,
  jsonText,
  multipart,
  type MultipartCase,
  oneFieldMutated,
  rawBody,
  text,
} from '../support/fuzz/arbitraries';
import * as bodies from '../support/fuzz/bodies';
import { casesFor, runs, timeoutFor } from '../support/fuzz/budget';
import { countStatus, expectDocumented, missionCountOf, printStatusCounts, stateOf } from '../support/fuzz/oracle';
import { applyCredential, type Credential, type Handler, newUser, send, trySet } from '../support/fuzz/parties';

// A database of its own: in bookkeeping mode creates link any onChainTaskId unchecked, and on the
// worker's shared database they would collide with tasks later files fund on the worker's anvil.
useTestEnvironment({
  ...BOOKKEEPING,
  ...isolatedDatabase(),
  NONCE_RATE_LIMIT_PER_MINUTE: '100000000',
  VERIFY_RATE_LIMIT_PER_MINUTE: '100000000',
  WRITE_RATE_LIMIT_PER_MINUTE: '100000000',
});

// Uploads spool to os.tmpdir(); a private one shows whether a request left anything behind.
const spoolRoot = mkdtempSync(join(tmpdir(), 'taskmarket-fuzz-spool-'));
const spoolLeft = () => readdirSync(spoolRoot).filter((name) => name.startsWith('taskmarket-upload-'));

type User = Awaited<ReturnType<typeof newUser>>;
type Status = 'OPEN' | 'ACCEPTED' | 'SUBMITTED' | 'CONTESTED' | 'DISPUTED' | 'COMPLETED' | 'CANCELLED';
const STATES: Status[] = ['OPEN', 'ACCEPTED', 'SUBMITTED', 'CONTESTED', 'DISPUTED', 'COMPLETED', 'CANCELLED'];

// --- parties and a pool of missions, one per state, rebuilt when a case moves one on ---

const people = {} as { agent: User; otherAgent: User; otherClient: User; owner: User; creates: number };

/** A client that may still create: creating is limited to 20 an hour per client, fixed. */
async function creator(): Promise<User> {
  if (!people.owner || people.creates >= 18) {
    people.owner = await newUser('CLIENT');
    people.creates = 0;
  }
  people.creates += 1;
  return people.owner;
}

interface Fixture {
  id: string;
  owner: User;
  assignee: User;
  fileId: string;
}

async function ok(response: Promise<{ status: number; body: any }>, what: string) {
  const r = await response;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const act = (action: keyof typeof routes, user: User, id: string, body?: unknown) =>
  ok(call(routes[action], { method: 'POST', token: user.token, params: { id }, body }), action);

/** A mission in `status`, owned by a client that may still create, worked by the agent, through the real routes. */
async function missionIn(status: Status): Promise<Fixture> {
  const owner = await creator();
  const fields = Object.fromEntries(
    Object.entries(missionInput()).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]),
  );
  const created = await ok(
    upload(createRoute, {
      token: owner.token,
      fields,
      files: [{ filename: 'brief.png', contentType: 'image/png', content: png() }],
    }),
    'create',
  );
  const { id } = created;
  const fixture = { id, owner, assignee: people.agent, fileId: created.attachments[0].id };
  if (status === 'CANCELLED') await act('cancel', owner, id);
  if (status === 'OPEN' || status === 'CANCELLED') return fixture;
  await act('accept', people.agent, id);
  if (status === 'ACCEPTED') return fixture;
  await act('submit', people.agent, id, { note: 'Done.' });
  if (status === 'COMPLETED') await act('approve', owner, id);
  if (status === 'CONTESTED') await act('contest', owner, id, { reason: 'Not yet.' });
  if (status === 'DISPUTED') {
    for (let round = 1; round <= 2; round += 1) {
      await act('contest', owner, id, { reason: `Round ${round}.` });
      await act('submit', people.agent, id, { note: `Fixed ${round}.` });
    }
    await act('contest', owner, id, { reason: 'Operator, please.' });
  }
  return fixture;
}

const pool = new Map<Status, Fixture>();

beforeAll(async () => {
  process.env.TMPDIR = spoolRoot;
  people.agent = await newUser('AGENT');
  people.otherAgent = await newUser('AGENT');
  people.otherClient = await newUser('CLIENT');
  for (const status of STATES) pool.set(status, await missionIn(status));
}, 180_000);

afterAll(printStatusCounts);

// --- the transition table, as the oracle for a request that succeeded (docs/api.md#mission-states) ---

type Who = 'owner' | 'assignee' | 'otherAgent' | 'otherClient';
type Action = 'accept' | 'submit' | 'approve' | 'contest' | 'cancel' | 'bump' | 'resolve';

/** What a successful action on a fixture must have led to; undefined when the table does not allow it. */
function allowed(action: Action, from: Status, who: Who | 'operator' | undefined): Status | undefined {
  // Fixtures: deadline a week ahead, review window open, contests just made, never bumped.
  if (action === 'accept' && from === 'OPEN' && (who === 'assignee' || who === 'otherAgent')) return 'ACCEPTED';
  if (action === 'submit' && (from === 'ACCEPTED' || from === 'CONTESTED') && who === 'assignee') return 'SUBMITTED';
  if (action === 'approve' && from === 'SUBMITTED' && who === 'owner') return 'COMPLETED';
  if (action === 'contest' && from === 'SUBMITTED' && who === 'owner') return 'CONTESTED';
  if (action === 'cancel' && from === 'OPEN' && who === 'owner') return 'CANCELLED';
  if (action === 'cancel' && (from === 'ACCEPTED' || from === 'CONTESTED') && who === 'assignee') return 'OPEN';
  // docs/api.md#escrow: a bump raises the reward on the board, and where a release waits for a topped-up task.
  if (action === 'bump' && (from === 'OPEN' || from === 'SUBMITTED') && who === 'owner') return from;
  if (action === 'resolve' && from === 'DISPUTED' && who === 'operator') return 'COMPLETED|CANCELLED' as Status;
  return undefined;
}

// Cookie-authenticated writes need an Origin of an allowed domain (docs/api.md#origins): these are not.
const FOREIGN_ORIGINS = new Set([
  undefined,
  'https://evilapp.example.com',
  'https://app.example.com.evil.io',
  'null',
  'http://localhost:3001',
]);

function speaker(c: Credential): Who | 'operator' | undefined {
  if (c.kind === 'bearer') return c.as as Who;
  if (c.kind === 'cookie' && !FOREIGN_ORIGINS.has(c.origin)) return c.as as Who;
  if (c.kind === 'operator' && c.secret === 'admin') return 'operator';
  return undefined;
}

const WHO: Who[] = ['owner', 'assignee', 'otherAgent', 'otherClient'];
const ORIGINS = [
  'https://app.example.com',
  'http://localhost:3000',
  'https://pr-12.app.example.com',
  'https://evilapp.example.com',
  'null',
  undefined,
];

const credentialArb: fc.Arbitrary<Credential> = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...WHO).map((as) => ({ kind: 'bearer' as const, as })) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom(...WHO), fc.constantFrom(...ORIGINS))
      .map(([as, origin]) => ({ kind: 'cookie' as const, as, origin })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom('admin' as const, 'cron' as const)
      .map((secret) => ({ kind: 'operator' as const, secret })),
  },
);

const usersOf = (f: Fixture): Record<Who, User> => ({
  owner: f.owner,
  assignee: f.assignee,
  otherAgent: people.otherAgent,
  otherClient: people.otherClient,
});

// Every fixture and every party at once: a request on one mission must not touch another either.
const watchAll = () => {
  const fixtures = [...pool.values()];
  return {
    missions: fixtures.map((f) => f.id),
    users: [
      ...new Set([...fixtures.map((f) => f.owner.id), people.agent.id, people.otherAgent.id, people.otherClient.id]),
    ],
  };
};
// Nothing else writes in this worker: the state after one case is the state before the next.
let lastState: string | undefined;
const stateBefore = async () => (lastState ??= await stateOf(watchAll()));
const stateAfter = async () => (lastState = await stateOf(watchAll()));

// --- one request against a fixture, checked ---

type Body =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; data: string | Uint8Array; contentType?: string }
  | { kind: 'multipart'; parts: MultipartCase }
  | { kind: 'none' };

function encode(body: Body, headers: Headers): string | Uint8Array | undefined {
  if (body.kind === 'json') {
    headers.set('content-type', 'application/json');
    return JSON.stringify(body.value) ?? '';
  }
  if (body.kind === 'raw') {
    if (body.contentType !== undefined) trySet(headers, 'content-type', body.contentType);
    return body.data;
  }
  if (body.kind === 'multipart') {
    const { body: bytes, contentType } = encodeMultipart(body.parts);
    headers.set('content-type', contentType);
    return bytes;
  }
  return undefined;
}

const HANDLERS: Record<Action, Handler> = { ...routes, resolve: resolveRoute } as Record<Action, Handler>;

async function actOn(
  label: string,
  action: Action,
  state: Status,
  credential: Credential,
  body: Body,
  idempotencyKey?: string,
) {
  const fixture = pool.get(state)!;
  const headers = new Headers();
  await applyCredential(headers, credential, usersOf(fixture));
  const bytes = encode(body, headers);
  if (idempotencyKey !== undefined) trySet(headers, 'idempotency-key', idempotencyKey);
  const before = await stateBefore();
  const response = await send(HANDLERS[action], {
    method: 'POST',
    path: `/api/missions/${fixture.id}/${action}`,
    headers,
    body: bytes,
    params: { id: fixture.id },
  });
  const where = `${label}: ${action} on ${state} as ${JSON.stringify(credential)}`;
  const answer = await expectDocumented(response, where);
  countStatus(label, answer.status);
  if (process.env.FUZZ_DEBUG)
    countStatus(`${label} ${action} ${credential.kind}${'as' in credential ? ` ${credential.as}` : ''}`, answer.status);
  expect(spoolLeft(), `${where}: spool left behind`).toEqual([]);
  if (answer.status >= 400) {
    expect(await stateAfter(), `${where} → ${answer.status} changed the data`).toBe(before);
    return answer;
  }
  // It happened: the table allows it, and the mission is where the table says.
  const who = speaker(credential);
  const expected = allowed(action, state, who);
  expect(expected, `${where} → ${answer.status}: the transition table does not allow this`).toBeDefined();
  const status = (answer.body as { status: string }).status;
  expect(expected!.split('|'), `${where}: now ${status}`).toContain(status);
  if (credential.kind === 'cookie')
    expect(FOREIGN_ORIGINS.has(credential.origin), `${where}: a cross-site write went through`).toBe(false);
  pool.set(state, await missionIn(state));
  lastState = undefined;
  return answer;
}

// --- bodies per action ---

const json = (arb: fc.Arbitrary<unknown>): fc.Arbitrary<Body> => arb.map((value) => ({ kind: 'json' as const, value }));
const form = (arb: fc.Arbitrary<Record<string, string>>): fc.Arbitrary<Body> =>
  multipart(FIELDS, arb).map((parts) => ({ kind: 'multipart' as const, parts }));
const anyBody: fc.Arbitrary<Body> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 2, arbitrary: jsonText.map((data) => ({ kind: 'raw' as const, data, contentType: 'application/json' })) },
  { weight: 1, arbitrary: rawBody.map((data) => ({ kind: 'raw' as const, data })) },
);

const BODIES: Record<Action, fc.Arbitrary<Body>> = {
  accept: anyBody,
  approve: anyBody,
  cancel: anyBody,
  submit: fc.oneof(
    { weight: 4, arbitrary: json(oneFieldMutated(bodies.validNote, bodies.noteValues).map(applyMutation)) },
    { weight: 3, arbitrary: form(bodies.validNote) },
    { weight: 1, arbitrary: anyBody },
  ),
  contest: fc.oneof(
    { weight: 4, arbitrary: json(oneFieldMutated(bodies.validReason, bodies.reasonValues).map(applyMutation)) },
    { weight: 3, arbitrary: form(bodies.validReason) },
    { weight: 1, arbitrary: anyBody },
  ),
  bump: fc.oneof(
    { weight: 4, arbitrary: json(oneFieldMutated(bodies.validBump, bodies.bumpValues).map(applyMutation)) },
    { weight: 1, arbitrary: form(bodies.validBump as fc.Arbitrary<Record<string, string>>) },
    { weight: 1, arbitrary: anyBody },
  ),
  resolve: fc.oneof(
    { weight: 4, arbitrary: json(oneFieldMutated(bodies.validResolve, bodies.resolveValues).map(applyMutation)) },
    { weight: 1, arbitrary: anyBody },
  ),
};

const ACTIONS = Object.keys(BODIES) as Action[];

// Where an action reads a body, and who may send it. (Accept, approve and cancel read none: aiming
// them would only make successes, and every success costs a new fixture.)
const AIM: Partial<Record<Action, [Status[], Who | 'operator']>> = {
  submit: [['ACCEPTED', 'CONTESTED'], 'assignee'],
  contest: [['SUBMITTED'], 'owner'],
  bump: [['OPEN'], 'owner'],
  resolve: [['DISPUTED'], 'operator'],
};

// Each action's parties on the states where it can get past the first checks, to reach the body.
const MULTIPART_TARGETS: [Action, Status, Who][] = [
  ['submit', 'ACCEPTED', 'assignee'],
  ['submit', 'CONTESTED', 'assignee'],
  ['contest', 'SUBMITTED', 'owner'],
  ['bump', 'OPEN', 'owner'],
];

describe('missions, every action, every state, every party', () => {
  const transitions = casesFor('transitions');
  test(
    `behavior: ${transitions} actions — a refusal changes nothing; a success is one the transition table allows`,
    async () => {
      // Half the cases aim at the action's own states and party, so its body is read and its rules run.
      const arb = fc.constantFrom(...ACTIONS).chain((action) => {
        const aim = AIM[action];
        if (!aim)
          return fc.record({
            action: fc.constant(action),
            state: fc.constantFrom(...STATES),
            credential: credentialArb,
            body: BODIES[action],
          });
        const [states, who] = aim;
        const credential =
          who === 'operator'
            ? fc.constant({ kind: 'operator' as const, secret: 'admin' as const })
            : fc.constant({ kind: 'bearer' as const, as: who });
        return fc.record({
          action: fc.constant(action),
          state: fc.oneof(fc.constantFrom(...STATES), fc.constantFrom(...states)),
          credential: fc.oneof(credentialArb, credential),
          body: BODIES[action],
        });
      });
      await fc.assert(
        fc.asyncProperty(arb, async (c) => void (await actOn('transition', c.action, c.state, c.credential, c.body))),
        runs(transitions),
      );
    },
    timeoutFor(transitions, 40),
  );

  const uploads = casesFor('multipart');
  test(
    `behavior: ${uploads} multipart bodies (spoiled, lying types, hostile names) from the ` +
      `right party — no 5xx, a refusal stores nothing, no spool left`,
    async () => {
      const arb = fc.constantFrom(...MULTIPART_TARGETS).chain(([action, state, who]) =>
        fc.record({
          target: fc.constant({ action, state, who }),
          parts: multipart(
            FIELDS,
            action === 'submit'
              ? bodies.validNote
              : action === 'contest'
                ? bodies.validReason
                : (bodies.validBump as fc.Arbitrary<Record<string, string>>),
          ),
        }),
      );
      await fc.assert(
        fc.asyncProperty(
          arb,
          async ({ target, parts }) =>
            void (await actOn(
              'multipart',
              target.action,
              target.state,
              { kind: 'bearer', as: target.who },
              { kind: 'multipart', parts },
            )),
        ),
        runs(uploads),
      );
    },
    timeoutFor(uploads, 40),
  );

  test(
    `behavior: ${casesFor('reads')} reads of a mission and its files, in every state, by anyone — they change nothing`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...STATES),
          credentialArb,
          fc.oneof(fc.constant('fixture'), fc.uuid(), text),
          async (state, credential, fileId) => {
            const fixture = pool.get(state)!;
            const before = await stateBefore();
            for (const [handler, params] of [
              [missionRoute, { id: fixture.id }],
              [fileRoute, { id: fixture.id, fileId: fileId === 'fixture' ? fixture.fileId : fileId }],
            ] as const) {
              const headers = new Headers();
              await applyCredential(headers, credential, usersOf(fixture));
              const response = await send(handler as Handler, {
                method: 'GET',
                path: `/api/missions/${fixture.id}`,
                headers,
                params,
              });
              const answer = await expectDocumented(response, `GET ${state} ${JSON.stringify(credential)}`, {
                binaryOk: handler === fileRoute,
              });
              countStatus(handler === fileRoute ? 'file read' : 'mission read', answer.status);
            }
            expect(await stateAfter()).toBe(before);
          },
        ),
        runs(casesFor('reads')),
      );
    },
    timeoutFor(casesFor('reads'), 40),
  );
});

describe('create with one field mutated', () => {
  const creates = casesFor('create');
  test(
    `behavior: ${creates} creates as JSON or multipart — refused: the caller's missions ` +
      `count and every table unchanged; created: exactly one more, OPEN and the caller's, or ` +
      `an Idempotency-Key's first mission replayed`,
    async () => {
      const body = fc.oneof(
        { weight: 3, arbitrary: json(oneFieldMutated(bodies.validCreate, bodies.createValues).map(applyMutation)) },
        { weight: 2, arbitrary: form(bodies.validCreate.map((b) => ({ ...b, tags: b.tags.join(',') }))) },
        { weight: 1, arbitrary: anyBody },
      );
      const key = fc.option(fc.oneof(fc.constantFrom('k-1', 'k-2'), text), { nil: undefined, freq: 3 });
      // The mission each (client, Idempotency-Key) created: the same key again replays it or is a 422.
      const createdWith = new Map<string, string>();
      await fc.assert(
        fc.asyncProperty(body, key, async (b, idempotencyKey) => {
          lastState = undefined;
          const client = await creator();
          const headers = new Headers({ authorization: `Bearer ${client.token}` });
          const bytes = encode(b, headers);
          if (idempotencyKey !== undefined) trySet(headers, 'idempotency-key', idempotencyKey);
          const watch = { users: [client.id] };
          const [before, countBefore] = [await stateOf(watch), await missionCountOf(client.id)];
          const response = await send(createRoute as Handler, {
            method: 'POST',
            path: '/api/missions',
            headers,
            body: bytes,
            params: {},
          });
          const where = `create ${JSON.stringify(b).slice(0, 400)} key=${JSON.stringify(idempotencyKey)}`;
          const answer = await expectDocumented(response, where);
          countStatus('create', answer.status);
          expect(spoolLeft(), `${where}: spool left behind`).toEqual([]);
          const countAfter = await missionCountOf(client.id);
          if (answer.status >= 400) {
            expect(countAfter, `${where} → ${answer.status}`).toBe(countBefore);
            expect(await stateOf(watch), `${where} → ${answer.status} changed the data`).toBe(before);
            return;
          }
          expect(answer.status, where).toBe(201);
          const mission = answer.body as { id: string; status: string; client: { walletAddress: string } };
          // Exactly one more, unless the client's Idempotency-Key created one before: then that one, replayed.
          const sentKey = headers.get('idempotency-key');
          const first = sentKey === null ? undefined : createdWith.get(`${client.id} ${sentKey}`);
          expect(countAfter - countBefore, where).toBe(first === undefined ? 1 : 0);
          if (first !== undefined) expect(mission.id, `${where}: replay`).toBe(first);
          else if (sentKey !== null) createdWith.set(`${client.id} ${sentKey}`, mission.id);
          expect(mission.status, where).toBe('OPEN');
          expect(mission.client.walletAddress, where).toBe(client.walletAddress);
        }),
        runs(creates),
      );
    },
    timeoutFor(creates, 40),
  );
});

describe('profile patches with one field mutated', () => {
  const patches = casesFor('profile');
  test(
    `behavior: ${patches} patches — refused: the user row unchanged; accepted: exactly what was sent, trimmed`,
    async () => {
      const user = await newUser('CLIENT');
      lastState = undefined;
      const patch = oneFieldMutated(bodies.validProfile, bodies.profileValues).map(applyMutation);
      await fc.assert(
        fc.asyncProperty(patch, async (value) => {
          const before = await stateOf({ users: [user.id] });
          const response = await send(patchProfile as Handler, {
            method: 'PATCH',
            path: '/api/account/profile',
            headers: new Headers({ authorization: `Bearer ${user.token}`, 'content-type': 'application/json' }),
            body: JSON.stringify(value) ?? '',
            params: {},
          });
          const where = `PATCH ${JSON.stringify(value)}`;
          const answer = await expectDocumented(response, where);
          countStatus('profile', answer.status);
          if (answer.status >= 400) {
            expect(await stateOf({ users: [user.id] }), `${where} → ${answer.status} changed the user`).toBe(before);
            return;
          }
          const profile = answer.body as Record<string, unknown>;
          for (const [field, sent] of Object.entries(value as Record<string, unknown>)) {
            // Text is stored as UTF-8: an unpaired surrogate (valid in JSON, not in Unicode) becomes U+FFFD.
            const wellFormed = typeof sent === 'string' ? sent.replace(/[\ud800-\udfff]/gu, '\ufffd').trim() : '';
            const stored = wellFormed === '' ? null : wellFormed;
            if (field === 'website' || field === 'avatarUrl') continue; // URLs come back normalised
            expect(profile[field], `${where}: ${field}`).toBe(stored);
          }
        }),
        runs(patches),
      );
    },
    timeoutFor(patches, 20),
  );
});
