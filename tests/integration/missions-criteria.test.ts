// docs/api.md#criteria through the route handlers: a mission's acceptance criteria and their hash, the
// self-check of a submission and of a bounty entry, the unmet criteria a contest names, the operator's
// verdicts, each refusal, and the events that record them.
import { keccak_256 } from '@noble/hashes/sha3';
import { beforeAll, describe, expect, test } from 'vitest';
import { POST as createRoute } from '@/app/api/missions/route';
import { POST as submitRoute } from '@/app/api/missions/[id]/submit/route';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { closeEntries, createBounty, entriesOf } from '../support/bounties';
import { POST as entriesRoute } from '@/app/api/missions/[id]/entries/route';
import {
  act,
  createMission,
  eventsOf,
  getMission,
  missionInput,
  missionRow,
  newAgent,
  newClient,
  ok,
  type Party,
  resolve,
} from '../support/missions';
import { upload } from '../support/multipart';
import { PUT as editCriteriaRoute } from '@/app/api/missions/[id]/criteria/route';
import { missions } from '@/lib/db/schema';
import { eq } from 'drizzle-orm';
import { db } from '../support/missions';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000', MAX_CONTESTS: '0' });

const CRITERIA = ['Every product has a box', 'Exported as "COCO" JSON \\ v1', 'Délai: 2 jours — ✓'];

/** The hash computed here from the contract's words, not by the server's code: keccak256 of the UTF-8 JSON array. */
function expectedHash(criteria: string[]): string {
  const canonical = `[${criteria.map((c) => `"${c.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}]`;
  return `0x${Buffer.from(keccak_256(new TextEncoder().encode(canonical))).toString('hex')}`;
}

const create = (client: Party, overrides: Record<string, unknown>) =>
  call(createRoute, { token: client.token, body: missionInput(overrides) });

let agent: Party;
beforeAll(async () => {
  agent = await newAgent();
});

/** A mission with CRITERIA, accepted by `agent` and delivered with a self-check. */
async function delivered() {
  const client = await newClient();
  const { id } = await createMission(client, { criteria: CRITERIA });
  await ok(act('accept', agent, id));
  await ok(
    act('submit', agent, id, {
      note: 'Done.',
      selfCheck: [
        { criterion: 1, met: true },
        { criterion: 3, met: false, note: 'Took three days.' },
      ],
    }),
  );
  return { client, id };
}

describe('criteria on a mission', () => {
  test('default: numbered from 1, trimmed, with the keccak256 of their canonical JSON', async () => {
    const client = await newClient();
    const created = await create(client, { criteria: CRITERIA.map((c) => `  ${c} `) });
    expect(created.status).toBe(201);
    expect(created.body.criteria).toEqual(CRITERIA.map((text, index) => ({ number: index + 1, text })));
    expect(created.body.criteriaHash).toBe(expectedHash(CRITERIA));
    expect(created.body.verdicts).toBeNull();
    // The public board shows them as the owner does.
    const read = await getMission(undefined, created.body.id);
    expect(read.body).toMatchObject({ criteria: created.body.criteria, criteriaHash: expectedHash(CRITERIA) });
  });

  test('default: a mission without criteria shows [] and a null hash', async () => {
    const { criteria, criteriaHash } = await createMission(await newClient());
    expect({ criteria, criteriaHash }).toEqual({ criteria: [], criteriaHash: null });
  });

  test('error: 1–20 criteria of 1–500 characters, one line each', async () => {
    const client = await newClient();
    for (const criteria of [
      [],
      Array.from({ length: 21 }, (_, i) => `c${i}`),
      ['   '],
      ['x'.repeat(501)],
      ['a\nb'],
      ['a\u0000b'],
      'one',
      [1],
    ]) {
      const response = await create(client, { criteria });
      expect(response.status, JSON.stringify(criteria)).toBe(400);
      expect(response.body.details.join(' ')).toMatch(/^criteria/);
    }
    expect((await create(client, { criteria: Array.from({ length: 20 }, (_, i) => 'x'.repeat(500 - i)) })).status).toBe(
      201,
    );
  });

  test('error: frozen once OPEN — a bump cannot change them', async () => {
    const client = await newClient();
    const { id } = await createMission(client, { criteria: CRITERIA });
    const bumped = await act('bump', client, id, { criteria: ['Something easier'] });
    expect(bumped.status).toBe(400);
    expect(bumped.body.details.join(' ')).toMatch(/criteria/);
    expect((await getMission(client, id)).body).toMatchObject({ bumpCount: 0, criteriaHash: expectedHash(CRITERIA) });
  });
});

describe('PUT /api/missions/{id}/criteria', () => {
  const edit = (party: Party, id: string, body: unknown) =>
    call(editCriteriaRoute, { method: 'PUT', token: party.token, params: { id }, body });
  // An escrow deployment posts missions AWAITING_FUNDING (docs/api.md#post-and-pay); this suite has none, so the row is
  // set so.
  const unfunded = async (id: string) =>
    (await db()).update(missions).set({ status: 'AWAITING_FUNDING' }).where(eq(missions.id, id));

  test('default: the poster replaces or clears them while AWAITING_FUNDING, with their hash', async () => {
    const client = await newClient();
    const { id } = await createMission(client, { criteria: CRITERIA });
    await unfunded(id);
    const replaced = await edit(client, id, { criteria: [' Only this '] });
    expect(replaced).toMatchObject({
      status: 200,
      body: { criteria: [{ number: 1, text: 'Only this' }], criteriaHash: expectedHash(['Only this']) },
    });
    expect((await eventsOf(id)).at(-1)).toMatchObject({
      action: 'criteria',
      fromStatus: 'AWAITING_FUNDING',
      data: { criteriaHash: expectedHash(['Only this']) },
    });
    expect(await ok(edit(client, id, { criteria: null }))).toMatchObject({ criteria: [], criteriaHash: null });
  });

  test('error: frozen once OPEN (409); the owner only; the list rules (400)', async () => {
    const client = await newClient();
    const { id } = await createMission(client, { criteria: CRITERIA });
    expect(await edit(client, id, { criteria: ['Easier'] })).toMatchObject({
      status: 409,
      body: { error: 'The criteria are frozen once the mission is OPEN' },
    });
    const stranger = await newClient();
    expect((await edit(stranger, id, { criteria: ['Easier'] })).status).toBe(403);
    await unfunded(id);
    expect((await edit(stranger, id, { criteria: ['Easier'] })).status).toBe(404);
    for (const body of [{ criteria: [] }, { criteria: ['x'.repeat(501)] }, {}, { criteria: ['a'], title: 'x' }]) {
      expect((await edit(client, id, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await missionRow(id)).criteriaHash).toBe(expectedHash(CRITERIA));
  });
});

describe('self-check', () => {
  test('default: a submission carries its self-check, shown to the parties and recorded in the event', async () => {
    const { client, id } = await delivered();
    const selfCheck = [
      { criterion: 1, met: true },
      { criterion: 3, met: false, note: 'Took three days.' },
    ];
    expect((await getMission(client, id)).body.submission).toMatchObject({ note: 'Done.', selfCheck });
    expect((await eventsOf(id)).at(-1)).toMatchObject({ action: 'submit', data: { selfCheck } });
  });

  test('error: a self-check names existing criteria, each once, a note of at most 500 characters', async () => {
    const client = await newClient();
    const { id } = await createMission(client, { criteria: CRITERIA });
    await ok(act('accept', agent, id));
    const refused = [
      [{ criterion: 4, met: true }],
      [{ criterion: 0, met: true }],
      [
        { criterion: 1, met: true },
        { criterion: 1, met: false },
      ],
      [{ criterion: 1, met: 'yes' }],
      [{ criterion: 1 }],
      [{ criterion: 1, met: true, note: 'x'.repeat(501) }],
      [{ criterion: 1, met: true, extra: 1 }],
      { criterion: 1, met: true },
    ];
    for (const selfCheck of refused) {
      const response = await act('submit', agent, id, { note: 'Done.', selfCheck });
      expect(response.status, JSON.stringify(selfCheck)).toBe(400);
    }
    expect((await missionRow(id)).status).toBe('ACCEPTED');
    expect(await ok(act('submit', agent, id, { note: 'Done.', selfCheck: [] }))).toMatchObject({
      submission: { selfCheck: [] },
    });
  });

  test('error: no self-check on a mission without criteria', async () => {
    const { id } = await createMission(await newClient());
    await ok(act('accept', agent, id));
    const response = await act('submit', agent, id, { note: 'Done.', selfCheck: [{ criterion: 1, met: true }] });
    expect(response).toMatchObject({ status: 400, body: { details: ['selfCheck: the mission has no criteria'] } });
  });

  test('behavior: a multipart submission carries its self-check as JSON text', async () => {
    const client = await newClient();
    const { id } = await createMission(client, { criteria: CRITERIA });
    await ok(act('accept', agent, id));
    const response = await upload(submitRoute, {
      token: agent.token,
      params: { id },
      fields: { note: 'See the file.', selfCheck: JSON.stringify([{ criterion: 2, met: true }]) },
      files: [{ filename: 'export.json', contentType: 'application/json', content: Buffer.from('{}') }],
    });
    expect(response.status).toBe(200);
    expect(response.body.submission.selfCheck).toEqual([{ criterion: 2, met: true }]);
  });

  test('behavior: a bounty entry carries its self-check; an unknown criterion is a 400', async () => {
    const client = await newClient();
    const { id } = await createBounty(client, { criteria: CRITERIA, winners: 1 });
    const enter = (body: unknown) => call(entriesRoute, { method: 'POST', token: agent.token, params: { id }, body });
    expect((await enter({ note: 'Mine.', selfCheck: [{ criterion: 9, met: true }] })).status).toBe(400);
    const entered = await enter({ note: 'Mine.', selfCheck: [{ criterion: 2, met: true, note: 'COCO 1.0' }] });
    expect(entered.status).toBe(201);
    expect(entered.body.selfCheck).toEqual([{ criterion: 2, met: true, note: 'COCO 1.0' }]);
    expect((await entriesOf(client, id)).body.items[0].selfCheck).toEqual([
      { criterion: 2, met: true, note: 'COCO 1.0' },
    ]);
    expect((await eventsOf(id)).at(-1)).toMatchObject({
      action: 'enter',
      data: { selfCheck: [{ criterion: 2, met: true, note: 'COCO 1.0' }] },
    });
    await closeEntries(id);
  });
});

describe('contest with criteria', () => {
  test('default: the owner names the unmet criteria, shown and recorded with the contest', async () => {
    const { client, id } = await delivered();
    const unmet = [{ criterion: 3, reason: 'Delivered on day three.' }];
    const contested = await ok(act('contest', client, id, { reason: 'Late.', unmet }));
    expect(contested.contests).toEqual([expect.objectContaining({ round: 1, reason: 'Late.', unmet })]);
    expect((await getMission(agent, id)).body.contests[0].unmet).toEqual(unmet);
    expect((await eventsOf(id)).at(-1)).toMatchObject({ action: 'contest', data: { unmet } });
  });

  test('error: a mission with criteria needs at least one existing unmet criterion with a reason', async () => {
    const { client, id } = await delivered();
    const refused = [
      undefined,
      [],
      [{ criterion: 4, reason: 'No such.' }],
      [{ criterion: 1, reason: '' }],
      [{ criterion: 1, reason: 'x'.repeat(501) }],
      [
        { criterion: 1, reason: 'a' },
        { criterion: 1, reason: 'b' },
      ],
      [{ criterion: 1 }],
    ];
    for (const unmet of refused) {
      const response = await act('contest', client, id, { reason: 'No.', ...(unmet === undefined ? {} : { unmet }) });
      expect(response.status, JSON.stringify(unmet)).toBe(400);
    }
    expect((await missionRow(id)).status).toBe('SUBMITTED');
  });

  test('default: without criteria a contest is a reason alone, as before; unmet is refused', async () => {
    const client = await newClient();
    const { id } = await createMission(client);
    await ok(act('accept', agent, id));
    await ok(act('submit', agent, id, { note: 'Done.' }));
    expect((await act('contest', client, id, { reason: 'No.', unmet: [{ criterion: 1, reason: 'x' }] })).status).toBe(
      400,
    );
    expect(await ok(act('contest', client, id, { reason: 'No.' }))).toMatchObject({
      contests: [{ reason: 'No.', unmet: [] }],
    });
  });
});

describe('verdicts at resolve', () => {
  test('default: the operator records a verdict per criterion; the mission and the event show them', async () => {
    const { client, id } = await delivered();
    await ok(act('contest', client, id, { reason: 'Late.', unmet: [{ criterion: 3, reason: 'Day three.' }] }));
    expect((await missionRow(id)).status).toBe('DISPUTED');
    const verdicts = [
      { criterion: 1, met: true },
      { criterion: 2, met: true },
      { criterion: 3, met: false },
    ];
    const resolved = await resolve(id, { outcome: 'CANCELLED', note: 'Late.', verdicts });
    expect(resolved).toMatchObject({ status: 200, body: { status: 'CANCELLED', verdicts } });
    expect((await getMission(agent, id)).body.verdicts).toEqual(verdicts);
    expect((await eventsOf(id)).at(-1)).toMatchObject({
      actor: 'OPERATOR',
      toStatus: 'CANCELLED',
      data: { note: 'Late.', verdicts },
    });
  });

  test('error: verdicts name existing criteria, each once; none on a mission without criteria', async () => {
    const { client, id } = await delivered();
    await ok(act('contest', client, id, { reason: 'Late.', unmet: [{ criterion: 3, reason: 'Day three.' }] }));
    for (const verdicts of [
      [{ criterion: 4, met: true }],
      [],
      [
        { criterion: 1, met: true },
        { criterion: 1, met: true },
      ],
      [{ criterion: 1 }],
    ]) {
      expect((await resolve(id, { outcome: 'COMPLETED', verdicts })).status, JSON.stringify(verdicts)).toBe(400);
    }
    expect((await missionRow(id)).status).toBe('DISPUTED');
    expect(await ok(resolve(id, { outcome: 'COMPLETED', verdicts: [{ criterion: 3, met: true }] }))).toMatchObject({
      status: 'COMPLETED',
      verdicts: [{ criterion: 3, met: true }],
    });
    const plain = await newClient();
    const { id: other } = await createMission(plain);
    await ok(act('accept', agent, other));
    await ok(act('submit', agent, other, { note: 'Done.' }));
    await ok(act('contest', plain, other, { reason: 'No.' }));
    expect((await resolve(other, { outcome: 'COMPLETED', verdicts: [{ criterion: 1, met: true }] })).status).toBe(400);
    expect(await ok(resolve(other, { outcome: 'COMPLETED' }))).toMatchObject({ verdicts: null });
  });
});
