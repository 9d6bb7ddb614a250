// Money moves only with a person's yes (docs/api.md#confirmations): a release made with a delegated token
// (approve, award) is applied at once only while its grant's release limit covers it over a rolling 24 h;
// otherwise it answers 202 with a confirmation and changes nothing until the person approves it —
// once, as if made then, with the escrow's money moving on anvil only then.
import { and, eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { POST as claimRoute } from '@/app/api/agents/me/claim/route';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { GET as listRoute } from '@/app/api/confirmations/route';
import { GET as getRoute, POST as decideRoute } from '@/app/api/confirmations/[id]/route';
import { PATCH as patchGrant } from '@/app/api/grants/[id]/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { DELETE as deleteToken } from '@/app/api/tokens/[id]/route';
import { POST as createToken } from '@/app/api/tokens/route';
import { getDb } from '@/lib/db/client';
import { agentEarnings, confirmations, grantReleases, missionEvents, webhookEvents } from '@/lib/db/schema';
import { useTestEnvironment } from '../support/environment';
import { claimableOnChain, fundTask, taskOnChain, topUpTask } from '../support/escrow';
import { award, closeEntries, enter } from '../support/bounties';
import { act, missionInput, missionRow, newAgent, ok, type Party } from '../support/missions';
import { call } from '../support/http';
import { newWallet, signIn } from '../support/wallets';

useTestEnvironment({
  PLATFORM_FEE_BPS: '1000',
  WRITE_RATE_LIMIT_PER_MINUTE: '100000',
  ENTRY_RATE_LIMIT_PER_MINUTE: '100000',
});

const REWARD = 25_000_000n;
const DAY_MS = 24 * 3600 * 1000;

interface Person extends Party {
  wallet: ReturnType<typeof newWallet>;
}

async function person(): Promise<Person> {
  const wallet = newWallet();
  const { token, user } = await signIn(wallet);
  return { wallet, token, address: user.walletAddress, id: user.id };
}

/** A personal token of `owner`'s with `scopes` and, when given, a release limit. */
async function tokenOf(owner: Party, scopes: string[], releaseLimit?: string) {
  const answer = await call(createToken, {
    method: 'POST',
    token: owner.token,
    body: { name: 'agent', scopes, ...(releaseLimit !== undefined && { releaseLimit }) },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return {
    token: answer.body.token as string,
    grantId: answer.body.grant.id as string,
    releaseLimit: answer.body.grant.releaseLimit as string,
  };
}

/** A funded mission of `client`'s, accepted and delivered by a fresh agent: SUBMITTED. */
async function delivered(client: Person) {
  const taskId = await fundTask(client.wallet, REWARD);
  const created = await call(createRoute, {
    token: client.token,
    body: missionInput({ reward: REWARD.toString(), onChainTaskId: taskId }),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  const worker = await newAgent();
  await ok(act('accept', worker, id));
  await ok(act('submit', worker, id, { note: 'Done: see the export.' }));
  return { id, taskId, worker };
}

const approveWith = (token: string, id: string) => act('approve', { token, address: '', id: '' }, id);
const decide = (token: string, id: string, decision: string) =>
  call(decideRoute, { method: 'POST', token, params: { id }, body: { decision } });
const read = (token: string, id: string) => call(getRoute, { token, params: { id } });
const RELEASED = 2; // the escrow's Released state

describe('releases within the limit', () => {
  test('default: a token whose limit covers the reward approves at once, and the escrow releases', async () => {
    const client = await person();
    const { id, taskId, worker } = await delivered(client);
    const agentToken = await tokenOf(client, ['missions:read', 'missions:post'], REWARD.toString());
    const answer = await approveWith(agentToken.token, id);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.status).toBe('COMPLETED');
    expect((await taskOnChain(taskId)).state).toBe(RELEASED);
    expect(await claimableOnChain(worker.address)).toBe((REWARD * 9_000n) / 10_000n);
  });

  test('behavior: the limit counts a rolling 24 h; a release older than that no longer counts', async () => {
    const client = await person();
    const agentToken = await tokenOf(client, ['missions:post'], ((REWARD * 3n) / 2n).toString());
    const first = await delivered(client);
    const second = await delivered(client);
    expect((await approveWith(agentToken.token, first.id)).status).toBe(200);
    expect((await approveWith(agentToken.token, second.id)).status).toBe(202);
    // A day passes for the first release.
    await (await getDb())
      .update(grantReleases)
      .set({ createdAt: new Date(Date.now() - DAY_MS - 1000) })
      .where(eq(grantReleases.grantId, agentToken.grantId));
    const again = await approveWith(agentToken.token, second.id);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((await taskOnChain(second.taskId)).state).toBe(RELEASED);
  });

  test(
    'race: two releases racing for a limit that covers one: one is applied, the other waits ' + 'for the person',
    async () => {
      const client = await person();
      const agentToken = await tokenOf(client, ['missions:post'], REWARD.toString());
      // Funded one after the other: the faucet's transactions take turns.
      const a = await delivered(client);
      const b = await delivered(client);
      const answers = await Promise.all([approveWith(agentToken.token, a.id), approveWith(agentToken.token, b.id)]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 202]);
      const states = await Promise.all([taskOnChain(a.taskId), taskOnChain(b.taskId)]);
      expect(states.filter((t) => t.state === RELEASED)).toHaveLength(1);
    },
  );

  test('behavior: the person raises the limit in Connected apps (PATCH /api/grants/{id}); a token cannot', async () => {
    const client = await person();
    const { id } = await delivered(client);
    const agentToken = await tokenOf(client, ['missions:post']);
    expect(agentToken.releaseLimit).toBe('0');
    expect(
      (
        await call(patchGrant, {
          method: 'PATCH',
          token: agentToken.token,
          params: { id: agentToken.grantId },
          body: { releaseLimit: '99000000' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call(patchGrant, {
          method: 'PATCH',
          token: client.token,
          params: { id: agentToken.grantId },
          body: { releaseLimit: '-1' },
        })
      ).status,
    ).toBe(400);
    const stranger = await person();
    expect(
      (
        await call(patchGrant, {
          method: 'PATCH',
          token: stranger.token,
          params: { id: agentToken.grantId },
          body: { releaseLimit: '1' },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(patchGrant, {
          method: 'PATCH',
          token: client.token,
          params: { id: agentToken.grantId },
          body: { releaseLimit: REWARD.toString() },
        })
      ).status,
    ).toBe(200);
    expect((await approveWith(agentToken.token, id)).status).toBe(200);
  });

  test(
    "behavior: a wallet sign-in releases at once, and claiming one's own earnings needs no " + 'confirmation',
    async () => {
      const client = await person();
      const { id, worker } = await delivered(client);
      expect((await act('approve', client, id)).status).toBe(200);
      const workerWallet = await tokenOf(worker, ['earnings:claim']);
      const claim = await call(claimRoute, { method: 'POST', token: workerWallet.token });
      expect(claim.status, JSON.stringify(claim.body)).toBe(200);
      expect(claim.body.status).toBe('MINED');
    },
  );
});

describe('beyond the limit: the person decides', () => {
  test(
    'default: 202 { confirmation: { id, url, expiresAt } }, nothing changed, the person ' + 'told by webhook',
    async () => {
      const client = await person();
      const { id, taskId } = await delivered(client);
      const agentToken = await tokenOf(client, ['missions:post']);
      const answer = await approveWith(agentToken.token, id);
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({
        confirmation: {
          id: expect.any(String),
          url: `https://app.example.com/confirmations/${answer.body.confirmation.id}`,
          expiresAt: expect.any(String),
        },
      });
      const ticket = answer.body.confirmation;
      expect(Date.parse(ticket.expiresAt) - Date.now()).toBeGreaterThan(DAY_MS - 60_000);
      expect((await missionRow(id)).status).toBe('SUBMITTED');
      expect((await taskOnChain(taskId)).state).not.toBe(RELEASED);
      const events = await (await getDb())
        .select()
        .from(webhookEvents)
        .where(and(eq(webhookEvents.missionId, id), eq(webhookEvents.event, 'confirmation.requested')));
      expect(events).toHaveLength(1);
      expect(events[0]!.audience).toEqual({ users: [client.id] });
      // Asked again while it waits: the same confirmation.
      expect((await approveWith(agentToken.token, id)).body.confirmation.id).toBe(ticket.id);
      const listed = await call(listRoute, { token: client.token });
      expect(listed.body.items.map((c: { id: string }) => c.id)).toEqual([ticket.id]);
      expect(listed.body.items[0]).toMatchObject({
        status: 'PENDING',
        action: 'approve',
        amount: REWARD.toString(),
        mission: { id, status: 'SUBMITTED' },
      });
    },
  );

  test(
    'behavior: approved by the person, the release is applied as if made then, and the ' + 'escrow releases',
    async () => {
      const client = await person();
      const { id, taskId, worker } = await delivered(client);
      const agentToken = await tokenOf(client, ['missions:post']);
      const { confirmation } = (await approveWith(agentToken.token, id)).body;
      const decided = await decide(client.token, confirmation.id, 'approve');
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      expect(decided.body).toMatchObject({ status: 'APPROVED', mission: { id, status: 'COMPLETED' } });
      expect((await taskOnChain(taskId)).state).toBe(RELEASED);
      expect(await claimableOnChain(worker.address)).toBe((REWARD * 9_000n) / 10_000n);
      const approvals = await (await getDb())
        .select()
        .from(missionEvents)
        .where(and(eq(missionEvents.missionId, id), eq(missionEvents.action, 'approve')));
      expect(approvals).toHaveLength(1);
      expect(approvals[0]!.actorId).toBe(client.id);
    },
  );

  test('race: two approvals of one confirmation apply it once', async () => {
    const client = await person();
    const { id } = await delivered(client);
    const agentToken = await tokenOf(client, ['missions:post']);
    const { confirmation } = (await approveWith(agentToken.token, id)).body;
    const answers = await Promise.all([
      decide(client.token, confirmation.id, 'approve'),
      decide(client.token, confirmation.id, 'approve'),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await (await getDb()).select().from(agentEarnings).where(eq(agentEarnings.missionId, id))).toHaveLength(1);
    expect((await decide(client.token, confirmation.id, 'deny')).status).toBe(409);
  });

  test('race: an approval and a denial at once: exactly one lands, and the mission agrees with it', async () => {
    const client = await person();
    const { id } = await delivered(client);
    const agentToken = await tokenOf(client, ['missions:post']);
    const { confirmation } = (await approveWith(agentToken.token, id)).body;
    const [approved, denied] = await Promise.all([
      decide(client.token, confirmation.id, 'approve'),
      decide(client.token, confirmation.id, 'deny'),
    ]);
    expect([approved.status, denied.status].sort()).toEqual([200, 409]);
    const status = (await read(client.token, confirmation.id)).body.status;
    expect(status).toBe(approved.status === 200 ? 'APPROVED' : 'DENIED');
    expect((await missionRow(id)).status).toBe(status === 'APPROVED' ? 'COMPLETED' : 'SUBMITTED');
  });

  test('behavior: denied, nothing happens and it cannot be approved afterwards', async () => {
    const client = await person();
    const { id, taskId } = await delivered(client);
    const agentToken = await tokenOf(client, ['missions:post']);
    const { confirmation } = (await approveWith(agentToken.token, id)).body;
    expect((await decide(client.token, confirmation.id, 'deny')).body.status).toBe('DENIED');
    expect((await decide(client.token, confirmation.id, 'approve')).status).toBe(409);
    expect((await missionRow(id)).status).toBe('SUBMITTED');
    expect((await taskOnChain(taskId)).state).not.toBe(RELEASED);
  });

  test('error: after 24 h a confirmation has expired and approving it is 409', async () => {
    const client = await person();
    const { id } = await delivered(client);
    const agentToken = await tokenOf(client, ['missions:post']);
    const { confirmation } = (await approveWith(agentToken.token, id)).body;
    await (await getDb())
      .update(confirmations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(confirmations.id, confirmation.id));
    expect((await read(client.token, confirmation.id)).body.status).toBe('EXPIRED');
    expect((await decide(client.token, confirmation.id, 'approve')).status).toBe(409);
    expect((await missionRow(id)).status).toBe('SUBMITTED');
    expect((await call(listRoute, { token: client.token })).body.items).toEqual([]);
  });

  test('race: the mission left SUBMITTED before the approval: the confirmation is withdrawn (SUPERSEDED)', async () => {
    const client = await person();
    const { id } = await delivered(client);
    const agentToken = await tokenOf(client, ['missions:post']);
    const { confirmation } = (await approveWith(agentToken.token, id)).body;
    await ok(act('contest', client, id, { reason: 'Boxes are off by a few pixels.' }));
    expect((await read(client.token, confirmation.id)).body).toMatchObject({
      status: 'SUPERSEDED',
      reason: expect.stringMatching(/left SUBMITTED/),
    });
    const approved = await decide(client.token, confirmation.id, 'approve');
    expect(approved.status).toBe(409);
    expect(approved.body.error).toMatch(/superseded/);
    expect((await missionRow(id)).status).toBe('CONTESTED');
    expect(await (await getDb()).select().from(agentEarnings).where(eq(agentEarnings.missionId, id))).toEqual([]);
    expect((await call(listRoute, { token: client.token })).body.items).toEqual([]);
  });

  test('race: a grant revoked while its confirmation waits: the confirmation is denied with it', async () => {
    const client = await person();
    const { id } = await delivered(client);
    const agentToken = await tokenOf(client, ['missions:post']);
    const { confirmation } = (await approveWith(agentToken.token, id)).body;
    expect(
      (await call(deleteToken, { method: 'DELETE', token: client.token, params: { id: agentToken.grantId } })).status,
    ).toBe(200);
    expect((await read(client.token, confirmation.id)).body.status).toBe('DENIED');
    expect((await decide(client.token, confirmation.id, 'approve')).status).toBe(409);
    expect((await missionRow(id)).status).toBe('SUBMITTED');
  });

  test('security: readable by the token that asked and the person only; decided by a wallet sign-in only', async () => {
    const client = await person();
    const { id } = await delivered(client);
    const asking = await tokenOf(client, ['missions:read', 'missions:post']);
    const sibling = await tokenOf(client, ['missions:read', 'missions:post']);
    const { confirmation } = (await approveWith(asking.token, id)).body;
    expect((await read(asking.token, confirmation.id)).status).toBe(200);
    expect((await read(client.token, confirmation.id)).status).toBe(200);
    expect((await read(sibling.token, confirmation.id)).status).toBe(404);
    expect((await read((await person()).token, confirmation.id)).status).toBe(404);
    expect((await read(client.token, 'not-a-uuid')).status).toBe(404);
    const byToken = await decide(asking.token, confirmation.id, 'approve');
    expect(byToken.status).toBe(403);
    expect((await call(listRoute, { token: asking.token })).status).toBe(403);
    expect((await decide((await person()).token, confirmation.id, 'approve')).status).toBe(404);
    expect((await decide(client.token, confirmation.id, 'maybe')).status).toBe(400);
    expect((await missionRow(id)).status).toBe('SUBMITTED');
  });

  test('behavior: a bounty award beyond the limit waits, and approved it awards exactly the winners sent', async () => {
    const client = await person();
    const taskId = await fundTask(client.wallet, REWARD);
    const created = await call(createRoute, {
      token: client.token,
      body: missionInput({ reward: REWARD.toString(), onChainTaskId: taskId, assignment: 'BOUNTY', winners: 1 }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const entrant = await newAgent();
    expect((await enter(entrant, id, 'My entry.')).status).toBe(201);
    await closeEntries(id);
    const agentToken = await tokenOf(client, ['missions:post']);
    const asked = await award({ token: agentToken.token, address: '', id: '' }, id, { winners: [entrant.address] });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    const view = (await read(client.token, asked.body.confirmation.id)).body;
    expect(view).toMatchObject({
      action: 'award',
      amount: REWARD.toString(),
      recipients: [{ walletAddress: entrant.address }],
    });
    expect((await missionRow(id)).status).toBe('JUDGING');
    const decided = await decide(client.token, asked.body.confirmation.id, 'approve');
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect((await missionRow(id)).status).toBe('AWARDED');
  });
});

describe('a release moves exactly what the person judged (the terms)', () => {
  test('security: a task topped up without a bump: a token whose limit covers the reward is refused', async () => {
    // The reproduced attack: the token's limit covers the mission's reward, the task holds far more,
    // and the escrow's release pays the whole task.
    const client = await person();
    const { id, taskId, worker } = await delivered(client);
    const agentToken = await tokenOf(client, ['missions:post'], REWARD.toString());
    await topUpTask(client.wallet, taskId, 975_000_000n);
    const answer = await approveWith(agentToken.token, id);
    expect(answer.status, JSON.stringify(answer.body)).toBe(409);
    expect(answer.body.error).toMatch(/holds 1000000000, not this mission's reward 25000000.*bump/i);
    expect((await taskOnChain(taskId)).state).not.toBe(RELEASED);
    expect(await claimableOnChain(worker.address)).toBe(0n);
    // Nothing was counted against the limit either.
    expect(
      await (await getDb()).select().from(grantReleases).where(eq(grantReleases.grantId, agentToken.grantId)),
    ).toEqual([]);
  });

  test('security: topped up after asking: the card shows the live amount; approval is 409 SUPERSEDED', async () => {
    const client = await person();
    const { id, taskId, worker } = await delivered(client);
    const agentToken = await tokenOf(client, ['missions:post']);
    const { confirmation } = (await approveWith(agentToken.token, id)).body;
    const before = (await read(client.token, confirmation.id)).body;
    expect(before).toMatchObject({
      amount: REWARD.toString(),
      terms: { action: 'approve', agent: worker.address.toLowerCase(), round: 1, taskAmount: REWARD.toString() },
      termsHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      live: { changed: [] },
    });
    expect(before.live.termsHash).toBe(before.termsHash);
    await topUpTask(client.wallet, taskId, 975_000_000n);
    const card = (await read(client.token, confirmation.id)).body;
    expect(card.terms.taskAmount).toBe(REWARD.toString());
    expect(card.live).toMatchObject({ terms: { taskAmount: '1000000000' }, changed: ['taskAmount'] });
    const approved = await decide(client.token, confirmation.id, 'approve');
    expect(approved.status).toBe(409);
    expect(approved.body.error).toMatch(/superseded.*taskAmount/);
    expect((await read(client.token, confirmation.id)).body.status).toBe('SUPERSEDED');
    expect((await taskOnChain(taskId)).state).not.toBe(RELEASED);
    expect((await missionRow(id)).status).toBe('SUBMITTED');
  });

  test('security: contest, withdrawal, bump, a new agent: the old yes never pays B (409 SUPERSEDED)', async () => {
    const client = await person();
    const { id, taskId, worker } = await delivered(client);
    const agentToken = await tokenOf(client, ['missions:post']);
    const { confirmation } = (await approveWith(agentToken.token, id)).body;
    await ok(act('contest', client, id, { reason: 'Boxes are off by a few pixels.' }));
    await ok(act('cancel', worker, id)); // agent A withdraws: OPEN again
    await topUpTask(client.wallet, taskId, 975_000_000n);
    await ok(act('bump', client, id, { reward: '1000000000' }));
    const agentB = await newAgent();
    await ok(act('accept', agentB, id));
    await ok(act('submit', agentB, id, { note: 'Done by B.' }));
    const approved = await decide(client.token, confirmation.id, 'approve');
    expect(approved.status).toBe(409);
    const view = (await read(client.token, confirmation.id)).body;
    expect(view).toMatchObject({ status: 'SUPERSEDED', amount: REWARD.toString() });
    expect(view.recipients).toEqual([{ walletAddress: worker.address.toLowerCase(), amount: '22500000' }]);
    expect((await taskOnChain(taskId)).state).not.toBe(RELEASED);
    expect(await claimableOnChain(agentB.address)).toBe(0n);
    expect((await missionRow(id)).status).toBe('SUBMITTED');
  });

  test('error: an approval carrying another termsHash is 409 and changes nothing; the right one approves', async () => {
    const client = await person();
    const { id, taskId } = await delivered(client);
    const agentToken = await tokenOf(client, ['missions:post']);
    const { confirmation } = (await approveWith(agentToken.token, id)).body;
    const view = (await read(client.token, confirmation.id)).body;
    const body = (termsHash: string) => ({ decision: 'approve', termsHash });
    const wrong = await call(decideRoute, {
      method: 'POST',
      token: client.token,
      params: { id: confirmation.id },
      body: body(`0x${'00'.repeat(32)}`),
    });
    expect(wrong.status).toBe(409);
    expect(wrong.body.details[0]).toBe(`termsHash: expected ${view.termsHash}`);
    expect((await read(client.token, confirmation.id)).body.status).toBe('PENDING');
    const right = await call(decideRoute, {
      method: 'POST',
      token: client.token,
      params: { id: confirmation.id },
      body: body(view.termsHash),
    });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect((await taskOnChain(taskId)).state).toBe(RELEASED);
  });
});

describe('retention', () => {
  test(
    'behavior: the sweep deletes confirmations decided or expired over ' +
      'WEBHOOK_RETENTION_DAYS ago, and keeps the rest',
    async () => {
      const client = await person();
      const agentToken = await tokenOf(client, ['missions:post']);
      const asks = [];
      for (let i = 0; i < 3; i++)
        asks.push((await approveWith(agentToken.token, (await delivered(client)).id)).body.confirmation.id as string);
      const [oldDenied, recentDenied, waiting] = asks as [string, string, string];
      for (const id of [oldDenied, recentDenied])
        expect((await decide(client.token, id, 'deny')).body.status).toBe('DENIED');
      const db = await getDb();
      const monthAgo = new Date(Date.now() - 31 * DAY_MS);
      await db.update(confirmations).set({ decidedAt: monthAgo }).where(eq(confirmations.id, oldDenied));
      const swept = await call(sweepRoute, {
        method: 'POST',
        headers: { authorization: `Bearer ${process.env.CRON_SECRET}` },
      });
      expect(swept.status).toBe(200);
      expect(swept.body.confirmations.deleted).toBeGreaterThanOrEqual(1);
      const left = await db
        .select({ id: confirmations.id })
        .from(confirmations)
        .where(eq(confirmations.userId, client.id));
      expect(left.map((row) => row.id).sort()).toEqual([recentDenied, waiting].sort());
      // A pending one whose 24 h ended a month ago goes too.
      await db.update(confirmations).set({ expiresAt: monthAgo }).where(eq(confirmations.id, waiting));
      await call(sweepRoute, { method: 'POST', headers: { authorization: `Bearer ${process.env.CRON_SECRET}` } });
      expect((await read(client.token, waiting)).status).toBe(404);
      expect((await read(client.token, recentDenied)).status).toBe(200);
    },
  );
});
