// A crash between the steps of a payout — after broadcast but before the receipt, or after the
// hash was recorded but before broadcast — is resumed from the outbox row and the chain's state:
// the release happens exactly once.
import { eq } from 'drizzle-orm';
import { createTestClient, http, keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterEach, describe, expect, test } from 'vitest';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
import { ANVIL_KEYS } from '@/lib/chain/anvil-node';
import { getDb } from '@/lib/db/client';
import { settlements } from '@/lib/db/schema';
import { call } from '../support/http';
import { publicClient } from '../support/chain';
import { setEnv, useTestEnvironment } from '../support/environment';
import { claimableOnChain, fundTask, taskOnChain } from '../support/escrow';
import { act, missionInput, ok } from '../support/missions';
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
    const rpc = process.env.RPC_URL;
    setEnv({ RPC_URL: 'http://127.0.0.1:9' });
    expect((await act('approve', client, id)).status).toBe(200);
    setEnv({ RPC_URL: rpc });
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
