// Settling in part (docs/api.md#settlement-offers, docs/api.md#split-verdicts), through the route handlers
// on a real anvil with escrow v5: either party offers `agentAmount`; the other accepts — the mission ends
// COMPLETED (CANCELLED for nothing to the agent) with its settlement, sent on-chain by `settle` once — or
// rejects, changing nothing. One offer is pending at a time, lapsing after 72 h or at any transition. A
// client's acceptance with a delegated token is a release (its limit, else a confirmation bound to the
// offer). The operator's resolve may split a dispute the same way. A mission funded on an escrow from
// before v5 cannot be settled in part; and of two answers racing on one offer, exactly one lands.
import { and, eq } from 'drizzle-orm';
import { createPublicClient, http, type Address, type Hex } from 'viem';
import { foundry } from 'viem/chains';
import { afterEach, describe, expect, test } from 'vitest';
import { POST as decideRoute } from '@/app/api/confirmations/[id]/route';
import { POST as answerRoute } from '@/app/api/missions/[id]/settlement-offers/[offerId]/route';
import { POST as offerRoute } from '@/app/api/missions/[id]/settlement-offers/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { POST as createToken } from '@/app/api/tokens/route';
import { taskEscrowArtifact } from '@/lib/chain/artifacts';
import { getDb } from '@/lib/db/client';
import { confirmations, missions, settlements, webhookEvents } from '@/lib/db/schema';
import { setEnv, useTestEnvironment } from '../support/environment';
import {
  claimableOnChain,
  deployOlderEscrow,
  fundTask,
  fundTaskOn,
  releasedOnChain,
  taskOnChain,
} from '../support/escrow';
import { call } from '../support/http';
import {
  act,
  earningsOf,
  getMission,
  missionInput,
  missionRow,
  newAgent,
  newClient,
  ok,
  type Party,
  resolve,
} from '../support/missions';
import { workerRpcUrl } from '../support/ports';
import { newWallet, signIn } from '../support/wallets';

const { contracts } = useTestEnvironment({ PLATFORM_FEE_BPS: '1000', WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

const REWARD = 25_000_001n; // odd: the fee on a part rounds
const RELEASED = 2;
const REFUNDED = 3;

interface Person extends Party {
  wallet: ReturnType<typeof newWallet>;
}

async function person(): Promise<Person> {
  const wallet = newWallet();
  const { token, user } = await signIn(wallet);
  return { wallet, token, address: user.walletAddress, id: user.id };
}

/** A funded mission of a fresh client's, on the board: OPEN. */
async function funded() {
  const client = await person();
  const taskId = await fundTask(client.wallet, REWARD);
  const created = await call(createRoute, {
    token: client.token,
    body: missionInput({ reward: REWARD.toString(), onChainTaskId: taskId }),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.id as string, client };
}

/** A funded mission of a fresh client's, accepted and delivered by a fresh agent: SUBMITTED. */
async function delivered() {
  const client = await person();
  const taskId = await fundTask(client.wallet, REWARD);
  const created = await call(createRoute, {
    token: client.token,
    body: missionInput({ reward: REWARD.toString(), onChainTaskId: taskId }),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  const agent = await newAgent();
  await ok(act('accept', agent, id));
  await ok(act('submit', agent, id, { note: 'Done: see the export.' }));
  return { id, taskId, client, agent };
}

const offer = (party: Pick<Party, 'token'>, id: string, body: Record<string, unknown>) =>
  call(offerRoute, { method: 'POST', token: party.token, params: { id }, body });
const answer = (party: Pick<Party, 'token'>, id: string, offerId: string, decision: string) =>
  call(answerRoute, { method: 'POST', token: party.token, params: { id, offerId }, body: { decision } });

async function settleRows(missionId: string) {
  return (await getDb()).select().from(settlements).where(eq(settlements.missionId, missionId));
}

async function webhookTypes(missionId: string) {
  const rows = await (await getDb()).select().from(webhookEvents).where(eq(webhookEvents.missionId, missionId));
  return rows.map((r) => r.event);
}

describe('settlement offers', () => {
  test('default: the agent offers part, the client accepts: COMPLETED, settled on-chain once, exactly', async () => {
    const { id, taskId, client, agent } = await delivered();
    const part = 10_000_001n;
    const made = await offer(agent, id, { agentAmount: part.toString(), note: 'Half the boxes were right.' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { offer: pending } = made.body;
    expect(pending).toMatchObject({ by: 'agent', agentAmount: part.toString(), refund: (REWARD - part).toString() });
    const lapses = new Date(pending.expiresAt).getTime() - Date.now();
    expect(lapses).toBeGreaterThan(71 * 3600_000);
    expect(lapses).toBeLessThanOrEqual(72 * 3600_000);
    // Both parties see it on the mission; a stranger does not.
    expect((await getMission(client, id)).body.settlementOffer).toMatchObject({ id: pending.id, by: 'agent' });
    expect((await getMission(agent, id)).body.settlementOffer).toMatchObject({ id: pending.id });
    expect((await getMission(await newClient(), id)).status).toBe(404);
    // The offerer cannot accept its own offer.
    expect((await answer(agent, id, pending.id, 'accept')).status).toBe(409);

    const accepted = await answer(client, id, pending.id, 'accept');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({
      status: 'COMPLETED',
      settlement: { agentAmount: part.toString(), refund: (REWARD - part).toString(), by: 'agreement' },
      settlementOffer: null,
    });
    const fee = (part * 1_000n) / 10_000n; // 1_000_000.1 rounded down
    expect(await earningsOf(id)).toMatchObject([
      { gross: part.toString(), fee: fee.toString(), amount: (part - fee).toString() },
    ]);
    expect(await taskOnChain(taskId)).toMatchObject({ state: RELEASED, amount: 0n });
    expect(await releasedOnChain(taskId)).toBe(part);
    expect(await claimableOnChain(agent.address)).toBe(part - fee);
    expect(await claimableOnChain(client.address)).toBe(REWARD - part);
    const rows = await settleRows(id);
    expect(rows.map((r) => [r.kind, r.status])).toEqual([['SETTLE', 'MINED']]);
    expect(rows[0]!.amount).toBe((part - fee).toString());
    // Accepting again is refused; nothing more is sent.
    expect((await answer(client, id, pending.id, 'accept')).status).toBe(409);
    expect(await settleRows(id)).toHaveLength(1);
    expect(await webhookTypes(id)).toEqual(
      expect.arrayContaining(['settlement.offered', 'mission.completed', 'earnings.released']),
    );
  });

  test('behavior: an offer of nothing to the agent, accepted by the agent: CANCELLED, refunded whole', async () => {
    const { id, taskId, client, agent } = await delivered();
    await ok(act('contest', client, id, { reason: 'Nothing matches the brief.' }));
    const made = await offer(client, id, { agentAmount: '0' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const accepted = await answer(agent, id, made.body.offer.id, 'accept');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({
      status: 'CANCELLED',
      settlement: { agentAmount: '0', refund: REWARD.toString(), by: 'agreement' },
    });
    expect(await earningsOf(id)).toEqual([]);
    expect((await taskOnChain(taskId)).state).toBe(REFUNDED);
    expect(await claimableOnChain(client.address)).toBe(REWARD);
    expect((await settleRows(id)).map((r) => [r.kind, r.status])).toEqual([['REFUND', 'MINED']]);
  });

  test('behavior: the whole reward by agreement pays the agent all of it less the fee, nothing refunded', async () => {
    const { id, taskId, client, agent } = await delivered();
    const made = await offer(client, id, { agentAmount: REWARD.toString() });
    const accepted = await answer(agent, id, made.body.offer.id, 'accept');
    expect(accepted.body).toMatchObject({ status: 'COMPLETED', settlement: { refund: '0' } });
    expect(await releasedOnChain(taskId)).toBe(REWARD);
    expect(await claimableOnChain(agent.address)).toBe(REWARD - REWARD / 10n);
    expect(await claimableOnChain(client.address)).toBe(0n);
  });

  test('behavior: a rejection changes nothing else; a new offer replaces the pending one', async () => {
    const { id, client, agent } = await delivered();
    const before = await missionRow(id);
    const first = (await offer(agent, id, { agentAmount: '20000000' })).body.offer;
    const second = (await offer(agent, id, { agentAmount: '15000000' })).body.offer;
    expect(second.id).not.toBe(first.id);
    expect((await answer(client, id, first.id, 'accept')).status).toBe(409);
    // The client's counter-offer replaces the agent's.
    const counter = (await offer(client, id, { agentAmount: '5000000' })).body.offer;
    expect((await answer(client, id, second.id, 'reject')).status).toBe(409);
    expect((await getMission(agent, id)).body.settlementOffer).toMatchObject({ id: counter.id, by: 'client' });
    const rejected = await answer(agent, id, counter.id, 'reject');
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'SUBMITTED', settlementOffer: null, settlement: null });
    const after = await missionRow(id);
    expect(after.reviewDeadline).toEqual(before.reviewDeadline); // the review clock keeps running
    expect(await settleRows(id)).toEqual([]);
    expect(await webhookTypes(id)).toEqual(expect.arrayContaining(['settlement.offered', 'settlement.rejected']));
  });

  test('behavior: an offer lapses at any transition, and after 72 h', async () => {
    const { id, client, agent } = await delivered();
    const pending = (await offer(agent, id, { agentAmount: '1000000' })).body.offer;
    await ok(act('contest', client, id, { reason: 'Not yet.' }));
    expect((await getMission(client, id)).body.settlementOffer).toBeNull();
    expect((await answer(client, id, pending.id, 'accept')).status).toBe(409);

    const later = (await offer(client, id, { agentAmount: '2000000' })).body.offer;
    const db = await getDb();
    await db
      .update(missions)
      .set({ settlementOffer: { ...later, expiresAt: new Date(Date.now() - 1000).toISOString() } })
      .where(eq(missions.id, id));
    expect((await answer(agent, id, later.id, 'accept')).status).toBe(409);
    expect((await missionRow(id)).status).toBe('CONTESTED');
  });

  test('error: who may offer and answer, in which states, for how much', async () => {
    const { id, client } = await delivered();
    const stranger = await newAgent();
    expect((await offer(client, id, { agentAmount: (REWARD + 1n).toString() })).status).toBe(400);
    expect((await offer(client, id, { agentAmount: '-1' })).status).toBe(400);
    expect((await offer(stranger, id, { agentAmount: '1' })).status).toBe(404);
    const pending = (await offer(client, id, { agentAmount: '1' })).body.offer;
    expect((await answer(stranger, id, pending.id, 'accept')).status).toBe(404);
    // Not in OPEN or ACCEPTED: there is nothing delivered to settle over.
    const open = await funded();
    expect((await offer(open.client, open.id, { agentAmount: '1' })).status).toBe(409);
    await ok(act('accept', stranger, open.id));
    expect((await offer(open.client, open.id, { agentAmount: '1' })).status).toBe(409);
    expect((await offer(stranger, open.id, { agentAmount: '1' })).status).toBe(409);
  });

  test('security: a delegated token accepts within its limit at once, beyond it by a confirmation', async () => {
    const within = await delivered();
    const small = await call(createToken, {
      method: 'POST',
      token: within.client.token,
      body: { name: 'agent', scopes: ['missions:post'], releaseLimit: '10000000' },
    });
    expect(small.status, JSON.stringify(small.body)).toBe(201);
    const part = (await offer(within.agent, within.id, { agentAmount: '9000000' })).body.offer;
    const atOnce = await answer({ token: small.body.token }, within.id, part.id, 'accept');
    expect(atOnce.status, JSON.stringify(atOnce.body)).toBe(200);
    expect(atOnce.body.status).toBe('COMPLETED');

    const beyond = await delivered();
    const limited = await call(createToken, {
      method: 'POST',
      token: beyond.client.token,
      body: { name: 'agent', scopes: ['missions:post'], releaseLimit: '1000000' },
    });
    const big = (await offer(beyond.agent, beyond.id, { agentAmount: '20000000' })).body.offer;
    const waits = await answer({ token: limited.body.token }, beyond.id, big.id, 'accept');
    expect(waits.status, JSON.stringify(waits.body)).toBe(202);
    expect((await missionRow(beyond.id)).status).toBe('SUBMITTED');
    const [asked] = await (await getDb())
      .select()
      .from(confirmations)
      .where(and(eq(confirmations.missionId, beyond.id), eq(confirmations.status, 'PENDING')));
    expect(asked!.action).toBe('settle');
    expect(asked!.amount).toBe('20000000');
    expect(asked!.terms).toMatchObject({ action: 'settle', offerId: big.id, agentAmount: '20000000' });
    // The person says yes: the offer is accepted as if then.
    const decided = await call(decideRoute, {
      method: 'POST',
      token: beyond.client.token,
      params: { id: asked!.id },
      body: { decision: 'approve' },
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect((await missionRow(beyond.id)).settlement).toMatchObject({ agentAmount: '20000000', by: 'agreement' });
    expect((await taskOnChain(beyond.taskId)).state).toBe(RELEASED);

    // A confirmation for an offer that was replaced is superseded: the yes was to other terms.
    const third = await delivered();
    const token3 = await call(createToken, {
      method: 'POST',
      token: third.client.token,
      body: { name: 'agent', scopes: ['missions:post'], releaseLimit: '1' },
    });
    const o1 = (await offer(third.agent, third.id, { agentAmount: '3000000' })).body.offer;
    expect((await answer({ token: token3.body.token }, third.id, o1.id, 'accept')).status).toBe(202);
    await offer(third.agent, third.id, { agentAmount: '3000000' });
    const [stale] = await (await getDb()).select().from(confirmations).where(eq(confirmations.missionId, third.id));
    const refused = await call(decideRoute, {
      method: 'POST',
      token: third.client.token,
      params: { id: stale!.id },
      body: { decision: 'approve' },
    });
    expect(refused.status).toBe(409);
    expect((await missionRow(third.id)).status).toBe('SUBMITTED');
  });

  test("security: a client's offer made with a delegated token counts against its release limit", async () => {
    const { id, client } = await delivered();
    const limited = await call(createToken, {
      method: 'POST',
      token: client.token,
      body: { name: 'agent', scopes: ['missions:post'], releaseLimit: '1000000' },
    });
    expect((await offer({ token: limited.body.token }, id, { agentAmount: '2000000' })).status).toBe(403);
    expect((await offer({ token: limited.body.token }, id, { agentAmount: '1000000' })).status).toBe(201);
    // Nothing to the agent releases nothing.
    expect((await offer({ token: limited.body.token }, id, { agentAmount: '0' })).status).toBe(201);
  });
});

describe('split verdicts', () => {
  async function disputed() {
    const m = await delivered();
    for (let round = 1; round <= 2; round += 1) {
      await ok(act('contest', m.client, m.id, { reason: `Round ${round}: still wrong.` }));
      await ok(act('submit', m.agent, m.id, { note: `Fixed, round ${round}.` }));
    }
    await ok(act('contest', m.client, m.id, { reason: 'I want the operator.' }));
    expect((await missionRow(m.id)).status).toBe('DISPUTED');
    return m;
  }

  test('default: the operator splits a dispute: COMPLETED, settled on-chain by settle', async () => {
    const { id, taskId, client, agent } = await disputed();
    const part = 7_777_777n;
    const resolved = await resolve(id, { outcome: 'SPLIT', agentAmount: part.toString(), note: 'Partly done.' });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body).toMatchObject({
      status: 'COMPLETED',
      settlement: { agentAmount: part.toString(), refund: (REWARD - part).toString(), by: 'operator' },
    });
    const fee = (part * 1_000n) / 10_000n;
    expect(await claimableOnChain(agent.address)).toBe(part - fee);
    expect(await claimableOnChain(client.address)).toBe(REWARD - part);
    expect(await releasedOnChain(taskId)).toBe(part);
    expect(await earningsOf(id)).toMatchObject([{ amount: (part - fee).toString(), fee: fee.toString() }]);
  });

  test('error: a split names 1 to reward − 1; agentAmount only with SPLIT; a pending offer lapses', async () => {
    const { id, agent } = await disputed();
    await offer(agent, id, { agentAmount: '1000' });
    expect((await resolve(id, { outcome: 'SPLIT' })).status).toBe(400);
    expect((await resolve(id, { outcome: 'SPLIT', agentAmount: '0' })).status).toBe(400);
    expect((await resolve(id, { outcome: 'SPLIT', agentAmount: REWARD.toString() })).status).toBe(400);
    expect((await resolve(id, { outcome: 'COMPLETED', agentAmount: '5' })).status).toBe(400);
    expect((await missionRow(id)).status).toBe('DISPUTED');
    const done = await resolve(id, { outcome: 'SPLIT', agentAmount: '5' });
    expect(done.body).toMatchObject({ status: 'COMPLETED', settlementOffer: null });
  });
});

describe('an escrow from before v5 (docs/api.md#settling-in-part)', () => {
  const reader = () => createPublicClient({ chain: foundry, transport: http(workerRpcUrl()) });
  const v4State = async (v4: Hex, taskId: number) =>
    (
      await reader().readContract({
        address: v4,
        abi: taskEscrowArtifact.abi,
        functionName: 'tasks',
        args: [BigInt(taskId)],
      })
    )[2];
  const v4Claimable = (v4: Hex, holder: string) =>
    reader().readContract({
      address: v4,
      abi: taskEscrowArtifact.abi,
      functionName: 'claimable',
      args: [holder as Address],
    });

  // The upgrade below points ESCROW_ADDRESS elsewhere for a while: every later test starts on v5 again.
  afterEach(() => setEnv({ ESCROW_ADDRESS: contracts.escrow, ESCROW_V4_ADDRESS: undefined }));

  test('error: an offer on a mission funded on v4, kept after the upgrade, is 409; nothing is stored', async () => {
    // The deployment as it was: a v4 escrow operated by the server's key on the same token, a mission funded there.
    const v4 = await deployOlderEscrow('v4');
    setEnv({ ESCROW_ADDRESS: v4 });
    const client = await person();
    const taskId = await fundTaskOn(
      { rpcUrl: workerRpcUrl(), escrow: v4, rewardToken: contracts.rewardToken as Hex },
      client.wallet,
      REWARD,
    );
    const created = await call(createRoute, {
      token: client.token,
      body: missionInput({ reward: REWARD.toString(), onChainTaskId: taskId }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect((await missionRow(id)).escrow).toBe(v4);
    // The upgrade (docs/escrow.md#upgrading-a-v4-deployment-to-v5): v5 is the current escrow, v4 is kept.
    setEnv({ ESCROW_ADDRESS: contracts.escrow, ESCROW_V4_ADDRESS: v4 });
    const agent = await newAgent();
    await ok(act('accept', agent, id));
    await ok(act('submit', agent, id, { note: 'Done: see the export.' }));
    const before = await missionRow(id);

    for (const party of [agent, client]) {
      const refused = await offer(party, id, { agentAmount: '10000001' });
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect(refused.body.error).toBe(
        "This mission's escrow task is on an escrow from before v5, which cannot settle in part: approve, " +
          'contest or cancel it instead',
      );
    }
    // Nothing stored: no offer on the mission, nothing announced, nothing queued for the chain.
    const after = await missionRow(id);
    expect(after).toMatchObject({ status: 'SUBMITTED', settlementOffer: null, updatedAt: before.updatedAt });
    expect((await getMission(client, id)).body.settlementOffer).toBeNull();
    expect(await webhookTypes(id)).not.toContain('settlement.offered');
    expect(await settleRows(id)).toEqual([]);
    // What the error names still works: the approval pays the whole task, less the fee, on v4.
    await ok(act('approve', client, id));
    expect(await v4State(v4, taskId)).toBe(RELEASED);
    expect(await v4Claimable(v4, agent.address)).toBe(REWARD - REWARD / 10n);
    expect((await settleRows(id)).map((r) => [r.kind, r.status, r.escrow])).toEqual([['RELEASE', 'MINED', v4]]);
  }, 120_000);
});

describe('answers racing on one offer', () => {
  const PART = 10_000_001n;
  const FEE = (PART * 1_000n) / 10_000n;
  const NO_LONGER_PENDING = 'This settlement offer is no longer pending: it was answered, replaced or has lapsed';

  /** The part settled on-chain exactly once: one SETTLE row, released() the part, claimables to the unit. */
  async function expectSettledOnce(m: Awaited<ReturnType<typeof delivered>>) {
    const rows = await settleRows(m.id);
    expect(rows.map((r) => [r.kind, r.status])).toEqual([['SETTLE', 'MINED']]);
    expect(await taskOnChain(m.taskId)).toMatchObject({ state: RELEASED, amount: 0n });
    expect(await releasedOnChain(m.taskId)).toBe(PART);
    expect(await claimableOnChain(m.agent.address)).toBe(PART - FEE);
    expect(await claimableOnChain(m.client.address)).toBe(REWARD - PART);
    expect(await earningsOf(m.id)).toMatchObject([{ gross: PART.toString(), fee: FEE.toString() }]);
  }

  test('behavior: the same offer accepted twice at once: one 200, one 409, settled on-chain once', async () => {
    const m = await delivered();
    const made = await offer(m.agent, m.id, { agentAmount: PART.toString() });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const answers = await Promise.all([
      answer(m.client, m.id, made.body.offer.id, 'accept'),
      answer(m.client, m.id, made.body.offer.id, 'accept'),
    ]);
    const won = answers.filter((a) => a.status === 200);
    const lost = answers.filter((a) => a.status !== 200);
    expect(won, JSON.stringify(answers.map((a) => a.body.error ?? a.body.status))).toHaveLength(1);
    expect(won[0]!.body).toMatchObject({ status: 'COMPLETED', settlement: { agentAmount: PART.toString() } });
    expect(lost.map((a) => a.status)).toEqual([409]);
    // The loser is told the offer is gone — or, when it read the offer before the winner committed, the
    // state the locked mission is now in.
    expect([NO_LONGER_PENDING, 'Mission is COMPLETED; settleByAgreement is not allowed']).toContain(
      lost[0]!.body.error,
    );
    await expectSettledOnce(m);
  });

  test('behavior: an accept racing a reject: one lands, the other is 409; settled once or not at all', async () => {
    // Both ways round: the client answering the agent's offer (its accept a release, read from the chain
    // first) and the agent answering the client's. Which one wins is the race's; each outcome is checked.
    for (const offerer of ['agent', 'client'] as const) {
      const m = await delivered();
      const [by, other] = offerer === 'agent' ? [m.agent, m.client] : [m.client, m.agent];
      const made = await offer(by, m.id, { agentAmount: PART.toString() });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const [accepted, rejected] = await Promise.all([
        answer(other, m.id, made.body.offer.id, 'accept'),
        answer(other, m.id, made.body.offer.id, 'reject'),
      ]);
      expect(
        [accepted.status, rejected.status].sort(),
        JSON.stringify([accepted.body.error ?? accepted.body.status, rejected.body.error ?? rejected.body.status]),
      ).toEqual([200, 409]);
      // Whichever lost was answering an offer the winner had already taken off the mission.
      expect((accepted.status === 409 ? accepted : rejected).body.error, offerer).toBe(NO_LONGER_PENDING);
      if (accepted.status === 200) {
        expect(accepted.body).toMatchObject({ status: 'COMPLETED', settlementOffer: null });
        await expectSettledOnce(m);
      } else {
        // The rejection won: nothing else changed, nothing was sent, and the task still holds the reward.
        expect(rejected.body).toMatchObject({ status: 'SUBMITTED', settlementOffer: null, settlement: null });
        expect(await settleRows(m.id)).toEqual([]);
        expect(await taskOnChain(m.taskId)).toMatchObject({ state: 1, amount: REWARD });
        expect(await releasedOnChain(m.taskId)).toBe(0n);
        expect(await claimableOnChain(m.agent.address)).toBe(0n);
        expect(await earningsOf(m.id)).toEqual([]);
      }
      expect((await missionRow(m.id)).settlementOffer).toBeNull();
    }
  });
});
