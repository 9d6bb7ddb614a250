// Small steps shared by the escrow tests: fund a client, open a task, release it.
import { expect } from 'vitest';
import { keccak256, parseEventLogs, toHex } from 'viem';
import { taskEscrowArtifact } from '@/lib/chain/artifacts';
import type { ChainContext } from './chain-fixture';

type Actor = ChainContext['client'];

export const USDC = 1_000_000n; // 6 decimals

export function missionRef(label: string) {
  return keccak256(toHex(label));
}

/** Mints `amount` to the actor and approves the escrow to pull it. */
export async function fund(ctx: ChainContext, who: Actor, amount: bigint) {
  await ctx.mined(who.token.write.mint([who.address, amount]));
  await ctx.mined(who.token.write.approve([ctx.deployed.escrow, amount]));
}

/** An expiry `seconds` after the chain's latest block (anvil's clock can run ahead of ours). */
export async function expiryIn(ctx: ChainContext, seconds: number): Promise<bigint> {
  const block = await ctx.publicClient.getBlock();
  return block.timestamp + BigInt(seconds);
}

/** Funds the client and opens a task for `reward`, expiring in a week; answers the new task id. */
export async function openTask(
  ctx: ChainContext,
  reward: bigint,
  who: Actor = ctx.client,
  ref = missionRef('m'),
  expiresAt?: bigint,
) {
  await fund(ctx, who, reward);
  const expiry = expiresAt ?? (await expiryIn(ctx, 7 * 86_400));
  const receipt = await ctx.mined(who.escrow.write.createTask([reward, ref, expiry]));
  const [created] = parseEventLogs({ abi: taskEscrowArtifact.abi, logs: receipt.logs, eventName: 'TaskCreated' });
  expect(created).toBeDefined();
  return created!.args.taskId;
}

/** Opens a task and has the operator release it to the agent. */
export async function releasedTask(ctx: ChainContext, reward: bigint, feeBps = 0) {
  const taskId = await openTask(ctx, reward);
  await ctx.mined(ctx.operator.escrow.write.release([taskId, ctx.agent.address, feeBps]));
  return taskId;
}
