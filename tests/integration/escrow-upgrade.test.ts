// Upgrading a deployment's escrow (docs/api.md#bounties, docs/escrow.md#upgrading-a-v4-deployment-to-v5), through
// the server: a mission funded on the old escrow before the upgrade keeps settling there once
// ESCROW_ADDRESS names the new one and ESCROW_V2_ADDRESS (V3, V4) the old one — its
// release and a cancelled one's refund go to the old escrow — while missions funded after it are
// paid by the new one; claim pays the old balance, then the new one.
import { eq } from 'drizzle-orm';
import { createPublicClient, http, type Address, type Hex } from 'viem';
import { foundry } from 'viem/chains';
import { describe, expect, test } from 'vitest';
import { GET as earningsRoute } from '@/app/api/agents/me/earnings/route';
import { POST as claimRoute } from '@/app/api/agents/me/claim/route';
import { taskEscrowArtifact } from '@/lib/chain/artifacts';
import { getDb } from '@/lib/db/client';
import { missions } from '@/lib/db/schema';
import { call } from '../support/http';
import { setEnv, useTestEnvironment } from '../support/environment';
import { claimableOnChain, deployOlderEscrow, fundTask, fundTaskOn } from '../support/escrow';
import { act, createMission, newAgent, ok, type Party } from '../support/missions';
import { workerRpcUrl } from '../support/ports';
import { newWallet, signIn } from '../support/wallets';
import { award, closeEntries, createBounty, endWindow, enter, sweep } from '../support/bounties';

const { contracts } = useTestEnvironment({ WRITE_RATE_LIMIT_PER_MINUTE: '100000' });
const REWARD = 4_000_000n;

async function fundedClient(escrow: Hex) {
  const wallet = newWallet();
  const taskId =
    escrow === contracts.escrow
      ? await fundTask(wallet, REWARD)
      : await fundTaskOn({ rpcUrl: workerRpcUrl(), escrow, rewardToken: contracts.rewardToken as Hex }, wallet, REWARD);
  const { token, user } = await signIn(wallet);
  return { party: { token, address: user.walletAddress, id: user.id } as Party, taskId };
}

const v2Task = async (escrow: Hex, taskId: number) => {
  const reader = createPublicClient({ chain: foundry, transport: http(workerRpcUrl()) });
  const [, , state] = await reader.readContract({
    address: escrow,
    abi: taskEscrowArtifact.abi,
    functionName: 'tasks',
    args: [BigInt(taskId)],
  });
  return state;
};
const claimableOn = (escrow: Hex, holder: string) =>
  createPublicClient({ chain: foundry, transport: http(workerRpcUrl()) }).readContract({
    address: escrow,
    abi: taskEscrowArtifact.abi,
    functionName: 'claimable',
    args: [holder as Address],
  });

describe('a v2 deployment upgraded to v3', () => {
  test('v2 tasks keep settling on v2 after the upgrade; a bounty settles on v3; claims drain v2, then v3', async () => {
    // The deployment as it was: a v2 escrow, operated by the server's key, on the same token.
    const v2 = await deployOlderEscrow('v2');
    setEnv({ ESCROW_ADDRESS: v2 });
    const agent = await newAgent();
    const before = await fundedClient(v2);
    const completed = await createMission(before.party, { reward: REWARD.toString(), onChainTaskId: before.taskId });
    const cancelled = await fundedClient(v2);
    const toCancel = await createMission(cancelled.party, {
      reward: REWARD.toString(),
      onChainTaskId: cancelled.taskId,
    });
    // Rows written before this release recorded no escrow.
    await (await getDb()).update(missions).set({ escrow: null }).where(eq(missions.id, completed.id));
    await ok(act('accept', agent, completed.id));

    // The upgrade: v3 is the current escrow, v2 is kept.
    setEnv({ ESCROW_ADDRESS: contracts.escrow, ESCROW_V2_ADDRESS: v2 });
    await ok(act('submit', agent, completed.id, { note: 'Done' }));
    await ok(act('approve', before.party, completed.id));
    expect(await v2Task(v2, before.taskId)).toBe(2); // Released, on v2
    await ok(act('cancel', cancelled.party, toCancel.id));
    expect(await v2Task(v2, cancelled.taskId)).toBe(3); // Refunded, on v2
    expect(await claimableOn(v2, cancelled.party.address)).toBe(REWARD);

    // A bounty funded after the upgrade, on v3 (its task id may equal a v2 one).
    const after = await fundedClient(contracts.escrow as Hex);
    const bounty = await createBounty(after.party, {
      winners: 1,
      reward: REWARD.toString(),
      onChainTaskId: after.taskId,
    });
    await enter(agent, bounty.id, 'Entry');
    await closeEntries(bounty.id);
    await sweep();
    await ok(award(after.party, bounty.id, { winners: [agent.address] }));
    await endWindow(bounty.id);
    await ok(sweep());
    expect(await claimableOn(v2, agent.address)).toBe(REWARD);
    expect(await claimableOnChain(agent.address)).toBe(REWARD); // v3

    const earnings = await call(earningsRoute, { token: agent.token });
    expect(earnings.body.pending).toBe((2n * REWARD).toString());
    const first = await call(claimRoute, { token: agent.token, method: 'POST' });
    expect(first.body).toMatchObject({ amount: REWARD.toString(), status: 'MINED' });
    expect(await claimableOn(v2, agent.address)).toBe(0n);
    const second = await call(claimRoute, { token: agent.token, method: 'POST' });
    expect(second.body).toMatchObject({ amount: REWARD.toString(), status: 'MINED' });
    expect(await claimableOnChain(agent.address)).toBe(0n);
    expect((await call(claimRoute, { token: agent.token, method: 'POST' })).status).toBe(409);
  }, 120_000);
});

describe('a v3 deployment upgraded to v4', () => {
  test('v3 tasks keep settling on v3 once ESCROW_V3_ADDRESS names it; a mission funded after ' +
    'settles on v4; claims drain v3, then v4', async () => {
    const v3 = await deployOlderEscrow('v3');
    setEnv({ ESCROW_ADDRESS: v3, ESCROW_V2_ADDRESS: undefined, ESCROW_V3_ADDRESS: undefined });
    const agent = await newAgent();
    const before = await fundedClient(v3);
    const completed = await createMission(before.party, { reward: REWARD.toString(), onChainTaskId: before.taskId });
    const cancelled = await fundedClient(v3);
    const toCancel = await createMission(cancelled.party, {
      reward: REWARD.toString(),
      onChainTaskId: cancelled.taskId,
    });
    await ok(act('accept', agent, completed.id));

    // The upgrade: the test chain's escrow (today's, v5) is the current one, v3 is kept.
    setEnv({ ESCROW_ADDRESS: contracts.escrow, ESCROW_V3_ADDRESS: v3 });
    await ok(act('submit', agent, completed.id, { note: 'Done' }));
    await ok(act('approve', before.party, completed.id));
    expect(await v2Task(v3, before.taskId)).toBe(2); // Released, on v3
    await ok(act('cancel', cancelled.party, toCancel.id));
    expect(await v2Task(v3, cancelled.taskId)).toBe(3); // Refunded, on v3
    expect(await claimableOn(v3, cancelled.party.address)).toBe(REWARD);

    // A mission funded after the upgrade, on the current escrow (its task id may equal a v3 one).
    const after = await fundedClient(contracts.escrow as Hex);
    const fresh = await createMission(after.party, { reward: REWARD.toString(), onChainTaskId: after.taskId });
    await ok(act('accept', agent, fresh.id));
    await ok(act('submit', agent, fresh.id, { note: 'Done' }));
    await ok(act('approve', after.party, fresh.id));
    expect(await claimableOn(v3, agent.address)).toBe(REWARD);
    expect(await claimableOnChain(agent.address)).toBe(REWARD); // the current escrow

    const earnings = await call(earningsRoute, { token: agent.token });
    expect(earnings.body.pending).toBe((2n * REWARD).toString());
    const first = await call(claimRoute, { token: agent.token, method: 'POST' });
    expect(first.body).toMatchObject({ amount: REWARD.toString(), status: 'MINED' });
    expect(await claimableOn(v3, agent.address)).toBe(0n);
    const second = await call(claimRoute, { token: agent.token, method: 'POST' });
    expect(second.body).toMatchObject({ amount: REWARD.toString(), status: 'MINED' });
    expect(await claimableOnChain(agent.address)).toBe(0n);
    expect((await call(claimRoute, { token: agent.token, method: 'POST' })).status).toBe(409);
  }, 120_000);
});

describe('a v4 deployment upgraded to v5', () => {
  test('v4 tasks keep settling on v4 once ESCROW_V4_ADDRESS names it; a mission funded after ' +
    'settles on v5; claims drain v4, then v5', async () => {
    const v4 = await deployOlderEscrow('v4');
    setEnv({
      ESCROW_ADDRESS: v4,
      ESCROW_V2_ADDRESS: undefined,
      ESCROW_V3_ADDRESS: undefined,
      ESCROW_V4_ADDRESS: undefined,
    });
    const agent = await newAgent();
    const before = await fundedClient(v4);
    const completed = await createMission(before.party, { reward: REWARD.toString(), onChainTaskId: before.taskId });
    const cancelled = await fundedClient(v4);
    const toCancel = await createMission(cancelled.party, {
      reward: REWARD.toString(),
      onChainTaskId: cancelled.taskId,
    });
    await ok(act('accept', agent, completed.id));

    // The upgrade: v5 (the test chain's escrow) is the current one, v4 is kept.
    setEnv({ ESCROW_ADDRESS: contracts.escrow, ESCROW_V4_ADDRESS: v4 });
    await ok(act('submit', agent, completed.id, { note: 'Done' }));
    await ok(act('approve', before.party, completed.id));
    expect(await v2Task(v4, before.taskId)).toBe(2); // Released, on v4
    await ok(act('cancel', cancelled.party, toCancel.id));
    expect(await v2Task(v4, cancelled.taskId)).toBe(3); // Refunded, on v4
    expect(await claimableOn(v4, cancelled.party.address)).toBe(REWARD);

    const after = await fundedClient(contracts.escrow as Hex);
    const fresh = await createMission(after.party, { reward: REWARD.toString(), onChainTaskId: after.taskId });
    await ok(act('accept', agent, fresh.id));
    await ok(act('submit', agent, fresh.id, { note: 'Done' }));
    await ok(act('approve', after.party, fresh.id));
    expect(await claimableOn(v4, agent.address)).toBe(REWARD);
    expect(await claimableOnChain(agent.address)).toBe(REWARD); // v5

    const earnings = await call(earningsRoute, { token: agent.token });
    expect(earnings.body.pending).toBe((2n * REWARD).toString());
    const first = await call(claimRoute, { token: agent.token, method: 'POST' });
    expect(first.body).toMatchObject({ amount: REWARD.toString(), status: 'MINED' });
    expect(await claimableOn(v4, agent.address)).toBe(0n);
    const second = await call(claimRoute, { token: agent.token, method: 'POST' });
    expect(second.body).toMatchObject({ amount: REWARD.toString(), status: 'MINED' });
    expect(await claimableOnChain(agent.address)).toBe(0n);
    expect((await call(claimRoute, { token: agent.token, method: 'POST' })).status).toBe(409);
  }, 120_000);
});
