// GET /api/admin/missions/{id} (docs/api.md#operator-missions): the operator's whole view of a disputed
// mission — criteria, the agent's self-check, the client's unmet list, files and times — behind ADMIN_TOKEN.
import { describe, expect, test } from 'vitest';
import { GET as adminMissionRoute } from '@/app/api/admin/missions/[id]/route';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { ADMIN, act, createMission, getMission, newAgent, newClient, ok } from '../support/missions';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000', MAX_CONTESTS: '0' });

const CRITERIA = ['Every product has a box', 'Exported as COCO JSON', 'Delivered within two days'];

const read = (id: string, headers: Record<string, string> = ADMIN) =>
  call(adminMissionRoute, { params: { id }, headers });

/** A mission with criteria, delivered with a self-check and contested once (MAX_CONTESTS 0): DISPUTED. */
async function disputed() {
  const client = await newClient();
  const agent = await newAgent();
  const { id } = await createMission(client, { criteria: CRITERIA });
  await ok(act('accept', agent, id));
  const selfCheck = [
    { criterion: 1, met: true },
    { criterion: 3, met: false, note: 'Took three days.' },
  ];
  await ok(act('submit', agent, id, { note: 'Done.', selfCheck }));
  const unmet = [{ criterion: 2, reason: 'It is Pascal VOC.' }];
  await ok(act('contest', client, id, { reason: 'Wrong format.', unmet }));
  return { client, agent, id, selfCheck, unmet };
}

describe('the operator reads a mission', () => {
  test('default: a disputed mission with its criteria, self-check, contest and times', async () => {
    const { client, agent, id, selfCheck, unmet } = await disputed();
    const response = await read(id);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      id,
      status: 'DISPUTED',
      client: { walletAddress: client.address },
      agent: { walletAddress: agent.address },
      criteria: CRITERIA.map((text, i) => ({ number: i + 1, text })),
      verdicts: null,
      submission: { note: 'Done.', selfCheck, files: [] },
      contests: [{ round: 1, reason: 'Wrong format.', unmet, files: [] }],
    });
    for (const at of ['createdAt', 'acceptedAt', 'submittedAt'] as const)
      expect(response.body[at]).toMatch(/^\d{4}-\d\d-\d\dT/);
    // The same view the client gets: the operator sees what the parties see, no more, no less.
    expect(response.body).toEqual((await getMission(client, id)).body);
  });

  test('error: 401 without the token or with a wrong one; 404 for an unknown or malformed id', async () => {
    const { id } = await disputed();
    expect((await read(id, {})).status).toBe(401);
    expect((await read(id, { authorization: 'Bearer not-the-admin-token-0123456789ab' })).status).toBe(401);
    expect((await read('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await read('not-an-id')).status).toBe(404);
  });
});
