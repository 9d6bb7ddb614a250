// A crash between the steps of a payout — after broadcast but before the receipt, or after the
// hash was recorded but before broadcast — is resumed from the outbox row and the chain's state:
// the release, escrow v5's settle of an accepted offer and its releasePart of an approved milestone
// each happen exactly once.
import { and, eq } from 'drizzle-orm';
import { createTestClient, http, keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
import { POST as answerRoute } from '@/app/api/missions/[id]/settlement-offers/[offerId]/route';
import { POST as offerRoute } from '@/app/api/missions/[id]/settlement-offers/route';
import { ANVIL_KEYS } from '@/lib/chain/anvil-node';
import { getDb } from '@/lib/db/client';
import { settlements } from '@/lib/db/schema';
import { call } from '../support/http';
import { startReadOnlyRpc } from '../support/rpc-proxy';
import { publicClient } from '../support/chain';
import { setEnv, useTestEnvironment } from '../support/environment';
import { claimableOnChain, fundTask, releasedOnChain, taskOnChain } from '../support/escrow';
import { act, missionInput, newAgent, ok, type Party } from '../support/missions';
import { workerRpcUrl } from '../support/ports';
import { newWallet, signIn } from '../support/wallets';

useTestEnvironment({ WRITE_RATE_LIMIT_PER_MINUTE: '100000', MINT_WAIT_MS: '300' });

const REWARD = 10_000_000n;
const operator = privateKeyToAccount(ANVIL_KEYS[0]).address;
const anvil = () => createTestClient({ chain: foundry, mode: 'anvil', transport: http(workerRpcUrl()) });
const sweep = () =>
  call(sweepRoute, { method: 'POST', headers: { authorization: `Bearer ${process.env.CRON_SECRET}` } });
const operatorNonce = () => publicClient().getTransactionCount({ address: operator, blockTag: 'pending' });

afterEach(async () => {
  await anvil().setAutomine(true);
});

async function submittedMission() {
  const wallet = newWallet();
  const taskId = await fundTask(wallet, REWARD);
  const client = await signIn(wallet);
  const worker = await signIn();
  const agentToken = (await call(registerAgent, { token: worker.token, method: 'POST' })).body.token as string;
  const created = await call(createRoute, {
    token: client.token,
    body: missionInput({ reward: REWARD.toString(), onChainTaskId: taskId }),
  });
  const id = created.body.id as string;
  await ok(act('accept', { token: agentToken, id: worker.user.id, address: worker.user.walletAddress }, id));
  await ok(
    act('submit', { token: agentToken, id: worker.user.id, address: worker.user.walletAddress }, id, { note: 'Done.' }),
  );
  return {
    client: { token: client.token, id: client.user.id, address: client.user.walletAddress },
    agentAddress: worker.user.walletAddress as string,
    agentToken,
    taskId,
    id,
  };
}

const releaseRow = async (missionId: string) =>
  (await (await getDb()).select().from(settlements).where(eq(settlements.missionId, missionId)))[0]!;

describe('payout recovery', () => {
  test(
    'behavior: broadcast but not yet mined when the worker stops: later sweeps wait for it ' + 'and never send again',
    async () => {
      const { client, agentAddress, taskId, id } = await submittedMission();
      await anvil().setAutomine(false);
      const nonceBefore = await operatorNonce();
      expect((await act('approve', client, id)).status).toBe(200);
      const row = await releaseRow(id);
      expect(row).toMatchObject({ status: 'PENDING', txHash: expect.stringMatching(/^0x/) });
      expect(await operatorNonce()).toBe(nonceBefore + 1);

      // The "restarted" service sweeps while the transaction still waits in the mempool.
      await sweep();
      await sweep();
      expect(await operatorNonce()).toBe(nonceBefore + 1);

      await anvil().mine({ blocks: 1 });
      await anvil().setAutomine(true);
      await sweep();
      expect(await releaseRow(id)).toMatchObject({ status: 'MINED', txHash: row.txHash });
      expect((await taskOnChain(taskId)).state).toBe(2);
      expect(await claimableOnChain(agentAddress)).toBe(REWARD);
      expect(await operatorNonce()).toBe(nonceBefore + 1);
    },
  );

  test('behavior: a hash recorded but never broadcast is looked up, found unknown, and sent once', async () => {
    const { client, agentAddress, taskId, id } = await submittedMission();
    const rpc = process.env.RPC_URL!;
    // A node down for sending: the approval reads its task (docs/api.md#escrow), its release is only recorded.
    const sendsDown = await startReadOnlyRpc(rpc);
    setEnv({ RPC_URL: sendsDown.url });
    expect((await act('approve', client, id)).status).toBe(200);
    setEnv({ RPC_URL: rpc });
    await sendsDown.close();
    // As if the worker had signed and recorded its transaction, then died before sending it.
    await (await getDb())
      .update(settlements)
      .set({ txHash: keccak256(toHex('never sent')) })
      .where(eq(settlements.missionId, id));
    const nonceBefore = await operatorNonce();
    await sweep();
    expect((await releaseRow(id)).status).toBe('MINED');
    expect((await taskOnChain(taskId)).state).toBe(2);
    expect(await claimableOnChain(agentAddress)).toBe(REWARD);
    expect(await operatorNonce()).toBe(nonceBefore + 1);
    await sweep();
    expect(await operatorNonce()).toBe(nonceBefore + 1);
  });
});

// docs/api.md#settlement-offers: an accepted offer is one SETTLE row, sent as escrow v5's settle — which
// credits the agent and refunds the client in one call — and resumed from the row and the chain as a release is.
describe('settle recovery', () => {
  const PART = 4_000_001n;

  const acceptedOffer = submittedMission;

  async function offerAndAccept(m: Awaited<ReturnType<typeof submittedMission>>, agentToken: string) {
    const made = await call(offerRoute, {
      method: 'POST',
      token: agentToken,
      params: { id: m.id },
      body: { agentAmount: PART.toString() },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return call(answerRoute, {
      method: 'POST',
      token: m.client.token,
      params: { id: m.id, offerId: made.body.offer.id },
      body: { decision: 'accept' },
    });
  }

  async function expectSettledOnce(m: Awaited<ReturnType<typeof submittedMission>>) {
    expect((await taskOnChain(m.taskId)).state).toBe(2);
    expect(await releasedOnChain(m.taskId)).toBe(PART);
    expect(await claimableOnChain(m.agentAddress)).toBe(PART);
    expect(await claimableOnChain(m.client.address)).toBe(REWARD - PART);
  }

  test('behavior: a settle broadcast but not mined when the worker stops is waited for, never sent again', async () => {
    const m = await acceptedOffer();
    await anvil().setAutomine(false);
    const nonceBefore = await operatorNonce();
    const accepted = await offerAndAccept(m, m.agentToken);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const row = await releaseRow(m.id);
    expect(row).toMatchObject({ kind: 'SETTLE', status: 'PENDING', txHash: expect.stringMatching(/^0x/) });
    await sweep();
    await sweep();
    expect(await operatorNonce()).toBe(nonceBefore + 1);
    await anvil().mine({ blocks: 1 });
    await anvil().setAutomine(true);
    await sweep();
    expect(await releaseRow(m.id)).toMatchObject({ status: 'MINED', txHash: row.txHash });
    await expectSettledOnce(m);
    expect(await operatorNonce()).toBe(nonceBefore + 1);
  });

  test('behavior: the RPC down at acceptance, then a hash recorded but never broadcast: sent once', async () => {
    const m = await acceptedOffer();
    const rpc = process.env.RPC_URL!;
    const sendsDown = await startReadOnlyRpc(rpc);
    setEnv({ RPC_URL: sendsDown.url });
    const accepted = await offerAndAccept(m, m.agentToken);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.status).toBe('COMPLETED');
    expect(await releaseRow(m.id)).toMatchObject({ kind: 'SETTLE', status: 'PENDING' });
    setEnv({ RPC_URL: rpc });
    await sendsDown.close();
    await (await getDb())
      .update(settlements)
      .set({ txHash: keccak256(toHex('never sent')) })
      .where(eq(settlements.missionId, m.id));
    const nonceBefore = await operatorNonce();
    await sweep();
    expect((await releaseRow(m.id)).status).toBe('MINED');
    await expectSettledOnce(m);
    await sweep();
    await sweep();
    expect(await operatorNonce()).toBe(nonceBefore + 1);
  });

  test('behavior: mined, but the worker died before marking the row: the sweep reads the chain only', async () => {
    const m = await acceptedOffer();
    await anvil().setAutomine(false);
    expect((await offerAndAccept(m, m.agentToken)).status).toBe(200);
    const row = await releaseRow(m.id);
    await anvil().mine({ blocks: 1 });
    await anvil().setAutomine(true);
    // As if the process had stopped after the receipt and before the row was marked.
    await (await getDb())
      .update(settlements)
      .set({ status: 'PENDING', lockedUntil: null })
      .where(eq(settlements.id, row.id));
    const nonceBefore = await operatorNonce();
    await sweep();
    await sweep();
    expect(await releaseRow(m.id)).toMatchObject({ status: 'MINED', txHash: row.txHash });
    await expectSettledOnce(m);
    expect(await operatorNonce()).toBe(nonceBefore);
  });
});

// docs/api.md#milestones: an approved milestone is one PART row, sent as escrow v5's releasePart — which credits
// the agent that part less its fee and leaves the task open with the rest — and resumed as a release is.
describe('releasePart recovery', () => {
  // Odd parts and a fee, so the fee on the part alone shows: 10% of 3_333_333 is 333_333.3, rounded down.
  const PARTS = [3_333_333n, REWARD - 3_333_333n];
  const FEE_BPS = 1_000n;
  const net = PARTS[0]! - (PARTS[0]! * FEE_BPS) / 10_000n;

  // The fee is the mission's own, recorded when it is created: only this block's missions carry it.
  beforeAll(() => setEnv({ PLATFORM_FEE_BPS: FEE_BPS.toString() }));
  afterAll(() => setEnv({ PLATFORM_FEE_BPS: undefined }));

  /** A funded two-milestone mission, taken by a fresh agent, its first milestone submitted. */
  async function firstPartSubmitted() {
    const wallet = newWallet();
    const taskId = await fundTask(wallet, REWARD);
    const { token, user } = await signIn(wallet);
    const client: Party = { token, id: user.id, address: user.walletAddress };
    const agent = await newAgent();
    const created = await call(createRoute, {
      token,
      body: missionInput({
        reward: REWARD.toString(),
        onChainTaskId: taskId,
        milestones: PARTS.map((amount, i) => ({
          title: `Part ${i + 1}`,
          amount: amount.toString(),
          criteria: `Delivers part ${i + 1}`,
        })),
      }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    await ok(act('accept', agent, id));
    await ok(act('submit', agent, id, { milestone: 1, note: 'Part 1 done.' }));
    return { client, agent, taskId, id };
  }

  async function partRow(missionId: string) {
    const rows = await (await getDb())
      .select()
      .from(settlements)
      .where(and(eq(settlements.missionId, missionId), eq(settlements.kind, 'PART')));
    expect(rows).toHaveLength(1); // milestone 1's alone: milestone 2 is never approved here
    return rows[0]!;
  }

  /** Milestone 1 paid once: released() is its part, the task keeps the rest open, the agent has its net. */
  async function expectPartPaidOnce(m: Awaited<ReturnType<typeof firstPartSubmitted>>) {
    expect(await releasedOnChain(m.taskId)).toBe(PARTS[0]);
    expect(await taskOnChain(m.taskId)).toMatchObject({ state: 1, amount: PARTS[1] }); // Open
    expect(await claimableOnChain(m.agent.address)).toBe(net);
    expect(await claimableOnChain(m.client.address)).toBe(0n);
  }

  test('behavior: the RPC down at a milestone approval, then a hash recorded, never broadcast: sent once', async () => {
    const m = await firstPartSubmitted();
    const rpc = process.env.RPC_URL!;
    // A node down for sending: the approval reads its task, its releasePart is only recorded.
    const sendsDown = await startReadOnlyRpc(rpc);
    setEnv({ RPC_URL: sendsDown.url });
    const approved = await act('approve', m.client, m.id, { milestone: 1 });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.milestones[0]).toMatchObject({ status: 'APPROVED', releasedAmount: PARTS[0]!.toString() });
    expect(await partRow(m.id)).toMatchObject({ milestone: 1, status: 'PENDING' });
    setEnv({ RPC_URL: rpc });
    await sendsDown.close();
    expect(await releasedOnChain(m.taskId)).toBe(0n);
    // As if the worker had signed and recorded its transaction, then died before sending it.
    await (await getDb())
      .update(settlements)
      .set({ txHash: keccak256(toHex('never sent')) })
      .where(and(eq(settlements.missionId, m.id), eq(settlements.kind, 'PART')));
    const nonceBefore = await operatorNonce();
    await sweep();
    const row = await partRow(m.id);
    expect(row.status).toBe('MINED');
    expect(row.txHash).not.toBe(keccak256(toHex('never sent')));
    await expectPartPaidOnce(m);
    // Later sweeps find the part paid (released() covers it) and send nothing more.
    await sweep();
    await sweep();
    expect(await operatorNonce()).toBe(nonceBefore + 1);
    await expectPartPaidOnce(m);
  });

  test('behavior: a releasePart broadcast, not mined, when the worker stops is waited for, never resent', async () => {
    const m = await firstPartSubmitted();
    await anvil().setAutomine(false);
    const nonceBefore = await operatorNonce();
    const approved = await act('approve', m.client, m.id, { milestone: 1 });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const row = await partRow(m.id);
    expect(row).toMatchObject({ milestone: 1, status: 'PENDING', txHash: expect.stringMatching(/^0x/) });
    expect(await operatorNonce()).toBe(nonceBefore + 1);
    // The "restarted" service sweeps while the transaction still waits in the mempool: released() is still 0.
    await sweep();
    await sweep();
    expect(await operatorNonce()).toBe(nonceBefore + 1);
    expect((await partRow(m.id)).status).toBe('PENDING');
    await anvil().mine({ blocks: 1 });
    await anvil().setAutomine(true);
    await sweep();
    expect(await partRow(m.id)).toMatchObject({ status: 'MINED', txHash: row.txHash });
    await expectPartPaidOnce(m);
    await sweep();
    expect(await operatorNonce()).toBe(nonceBefore + 1);
  });
});
