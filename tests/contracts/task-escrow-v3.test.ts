// TaskEscrowV3 (docs/api.md#bounties): releaseSplit credits up to ten recipients and the fee on the whole
// task, only when the amounts and the fee add up to the task exactly; the reentrancy lock holds
// against a hostile token; and a v2 deployment keeps settling its own tasks beside a v3 one.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { type Abi, encodeFunctionData, getContract, type Hex, parseAbi, parseEventLogs, decodeErrorResult } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { taskEscrowArtifact, taskEscrowV3Artifact } from '@/lib/chain/artifacts';
import { deployContracts, deployEscrow } from '@/lib/chain/deploy';
import { ANVIL_KEYS } from '@/lib/chain/anvil-node';
import { expectRevert, useContractsChain, type ChainContext } from '../support/contracts/chain-fixture';
import { expiryIn, missionRef, openTask, USDC } from '../support/contracts/escrow-steps';

const chain = useContractsChain('v3');
const abi = taskEscrowV3Artifact.abi;
const wallets = (n: number) =>
  Array.from({ length: n }, (_, i) => privateKeyToAccount(ANVIL_KEYS[(i % 4) + 6]!).address);

async function passTime(ctx: ChainContext, seconds: number) {
  await ctx.testClient.increaseTime({ seconds });
  await ctx.testClient.mine({ blocks: 1 });
}

describe('releaseSplit', () => {
  test('credits each recipient its amount and the fee recipient feeBps of the whole task', async () => {
    const ctx = chain();
    const taskId = await openTask(ctx, 10n * USDC);
    // 10 USDC at 5 %: a fee of 0.5 on the whole; 6 and 2 to two winners, 1.5 back to the client.
    const recipients = [ctx.agent.address, ctx.stranger.address, ctx.client.address];
    const amounts = [6n * USDC, 2n * USDC, 1_500_000n];
    const receipt = await ctx.mined(ctx.operator.escrow.write.releaseSplit([taskId, recipients, amounts, 500]));
    expect(await ctx.agent.escrow.read.claimable([ctx.agent.address])).toBe(6n * USDC);
    expect(await ctx.agent.escrow.read.claimable([ctx.stranger.address])).toBe(2n * USDC);
    expect(await ctx.agent.escrow.read.claimable([ctx.client.address])).toBe(1_500_000n);
    expect(await ctx.agent.escrow.read.claimable([ctx.feeRecipient.address])).toBe(500_000n);
    expect((await ctx.agent.escrow.read.tasks([taskId]))[2]).toBe(2); // Released
    const [event] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskSplitReleased' });
    expect(event?.args).toEqual({ taskId, recipients, amounts, fee: 500_000n });
    for (const who of [ctx.agent, ctx.stranger, ctx.client, ctx.feeRecipient])
      await ctx.mined(who.escrow.write.claim());
    expect(await ctx.agent.token.read.balanceOf([ctx.deployed.escrow])).toBe(0n);
  });

  test('refuses amounts that with the fee do not add up to the task exactly, one unit either way', async () => {
    const ctx = chain();
    const taskId = await openTask(ctx, 10n * USDC);
    const split = (a: bigint) =>
      ctx.operator.escrow.write.releaseSplit([taskId, [ctx.agent.address, ctx.client.address], [a, 1n * USDC], 1_000]);
    await expectRevert(split(8n * USDC - 1n), 'SplitMismatch');
    await expectRevert(split(8n * USDC + 1n), 'SplitMismatch');
    await ctx.mined(split(8n * USDC));
    expect(await ctx.agent.escrow.read.claimable([ctx.feeRecipient.address])).toBe(1n * USDC);
  });

  test(
    'ten recipients at most, lengths equal, no zero address, fee within the ceiling, ' + 'operator only, once',
    async () => {
      const ctx = chain();
      const taskId = await openTask(ctx, 10n * USDC);
      const ten = wallets(10);
      const tenth = Array.from({ length: 10 }, () => USDC);
      await expectRevert(ctx.operator.escrow.write.releaseSplit([taskId, [], [], 0]), 'BadRecipients');
      await expectRevert(
        ctx.operator.escrow.write.releaseSplit([taskId, [...ten, ctx.agent.address], [...tenth, 0n], 0]),
        'BadRecipients',
      );
      await expectRevert(ctx.operator.escrow.write.releaseSplit([taskId, ten, tenth.slice(1), 0]), 'LengthMismatch');
      await expectRevert(
        ctx.operator.escrow.write.releaseSplit([
          taskId,
          ['0x0000000000000000000000000000000000000000'],
          [10n * USDC],
          0,
        ]),
        'ZeroAddress',
      );
      await expectRevert(
        ctx.operator.escrow.write.releaseSplit([taskId, [ctx.agent.address], [8n * USDC], 2_000]),
        'FeeTooHigh',
      );
      for (const who of [ctx.client, ctx.agent, ctx.owner, ctx.stranger]) {
        await expectRevert(who.escrow.write.releaseSplit([taskId, [who.address], [10n * USDC], 0]), 'NotOperator');
      }
      await ctx.mined(ctx.operator.escrow.write.releaseSplit([taskId, ten, tenth, 0]));
      await expectRevert(ctx.operator.escrow.write.releaseSplit([taskId, ten, tenth, 0]), 'TaskNotOpen');
      await expectRevert(ctx.operator.escrow.write.release([taskId, ctx.agent.address, 0]), 'TaskNotOpen');
      await expectRevert(ctx.operator.escrow.write.refund([taskId]), 'TaskNotOpen');
    },
  );

  test('a refunded or reclaimed task cannot be split, and a split task cannot be reclaimed', async () => {
    const ctx = chain();
    const refunded = await openTask(ctx, USDC);
    await ctx.mined(ctx.operator.escrow.write.refund([refunded]));
    await expectRevert(
      ctx.operator.escrow.write.releaseSplit([refunded, [ctx.agent.address], [USDC], 0]),
      'TaskNotOpen',
    );
    const reclaimed = await openTask(ctx, USDC, ctx.client, missionRef('r'), await expiryIn(ctx, 60));
    const split = await openTask(ctx, USDC, ctx.client, missionRef('s'), await expiryIn(ctx, 60));
    await ctx.mined(ctx.operator.escrow.write.releaseSplit([split, [ctx.agent.address], [USDC], 0]));
    await passTime(ctx, 120);
    await ctx.mined(ctx.client.escrow.write.reclaim([reclaimed]));
    await expectRevert(
      ctx.operator.escrow.write.releaseSplit([reclaimed, [ctx.agent.address], [USDC], 0]),
      'TaskNotOpen',
    );
    await expectRevert(ctx.client.escrow.write.reclaim([split]), 'TaskNotOpen');
  });
});

// Compiled from contracts/test/ReentrantToken.sol by `npm run contracts:compile` (test-only).
const reentrantToken = JSON.parse(
  readFileSync(new URL('../../contracts/out/test/ReentrantToken.json', import.meta.url), 'utf8'),
) as { abi: Abi; bytecode: Hex };
const hostileAbi = parseAbi([
  'function mint(address to, uint256 amount)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
  'function arm(address escrow, bytes data)',
  'function reentryAttempted() view returns (bool)',
  'function reentrySucceeded() view returns (bool)',
  'function reentryResult() view returns (bytes)',
]);

describe('releaseSplit with a hostile token', () => {
  test('a token that is also the operator cannot split a task from inside a payout', async () => {
    const ctx = chain();
    const deploy = async (contract: { abi: Abi; bytecode: Hex }, args: readonly unknown[]) =>
      (
        await ctx.mined(
          ctx.operator.walletClient.deployContract({ abi: contract.abi, bytecode: contract.bytecode, args }),
        )
      ).contractAddress!;
    const token = await deploy(reentrantToken, []);
    // The worst case: the token contract holds the operator role, so only the lock can stop it.
    const escrow = await deploy(taskEscrowV3Artifact, [
      token,
      ctx.owner.address,
      token,
      ctx.feeRecipient.address,
      1_000,
    ]);
    const bind = (wallet: typeof ctx.client.walletClient) => ({
      token: getContract({ address: token, abi: hostileAbi, client: { public: ctx.publicClient, wallet } }),
      escrow: getContract({ address: escrow, abi, client: { public: ctx.publicClient, wallet } }),
    });
    const client = bind(ctx.client.walletClient);
    await ctx.mined(client.token.write.mint([ctx.client.address, 4n * USDC]));
    await ctx.mined(client.token.write.approve([escrow, 4n * USDC]));
    await ctx.mined(client.escrow.write.createTask([USDC, missionRef('short'), await expiryIn(ctx, 60)]));
    await ctx.mined(client.escrow.write.createTask([3n * USDC, missionRef('bounty'), await expiryIn(ctx, 86_400)]));
    await passTime(ctx, 120);
    await ctx.mined(client.escrow.write.reclaim([1n]));
    // While paying the client its reclaim, the token tries to split the other task to itself.
    const steal = encodeFunctionData({ abi, functionName: 'releaseSplit', args: [2n, [token], [3n * USDC], 0] });
    await ctx.mined(client.token.write.arm([escrow, steal]));
    await ctx.mined(client.escrow.write.claim());
    expect(await client.token.read.reentryAttempted()).toBe(true);
    expect(await client.token.read.reentrySucceeded()).toBe(false);
    expect(decodeErrorResult({ abi, data: await client.token.read.reentryResult() }).errorName).toBe(
      'ReentrancyGuardReentrantCall',
    );
    // still Open
    expect((await client.escrow.read.tasks([2n])).slice(0, 3)).toEqual([ctx.client.address, 3n * USDC, 1]);
    expect(await client.escrow.read.claimable([token])).toBe(0n);
    expect(await client.token.read.balanceOf([ctx.client.address])).toBe(USDC);
    expect(await client.token.read.balanceOf([escrow])).toBe(3n * USDC);
  });
});

describe('upgrading a v2 deployment', () => {
  test(
    'v3 deployed beside v2 on the same token: each settles its own tasks, v2 tasks still ' +
      'release, refund and reclaim on v2',
    async () => {
      const ctx = chain();
      const options = {
        walletClient: ctx.operator.walletClient,
        publicClient: ctx.publicClient,
        registrar: ctx.operator.address,
        owner: ctx.owner.address,
        operator: ctx.operator.address,
        feeRecipient: ctx.feeRecipient.address,
        maxFeeBps: 1_000,
      };
      const old = await deployContracts({ ...options, escrowVersion: 'v2' });
      const v3 = await deployEscrow(options, old.rewardToken, 'v3');
      const on = (address: `0x${string}`, wallet: typeof ctx.client.walletClient) =>
        getContract({ address, abi, client: { public: ctx.publicClient, wallet } });
      const token = getContract({
        address: old.rewardToken,
        abi: hostileAbi,
        client: { public: ctx.publicClient, wallet: ctx.client.walletClient },
      });
      await ctx.mined(token.write.mint([ctx.client.address, 10n * USDC]));
      await ctx.mined(token.write.approve([old.escrow, 6n * USDC]));
      await ctx.mined(token.write.approve([v3, 4n * USDC]));
      const v2Client = on(old.escrow, ctx.client.walletClient);
      for (const [i, ttl] of [
        [1, 86_400],
        [2, 86_400],
        [3, 60],
      ] as const)
        await ctx.mined(v2Client.write.createTask([2n * USDC, missionRef(`v2-${i}`), await expiryIn(ctx, ttl)]));
      // v3 came after: its ids start at 1 again, so the server records which escrow holds a task.
      await ctx.mined(
        on(v3, ctx.client.walletClient).write.createTask([4n * USDC, missionRef('v3-1'), await expiryIn(ctx, 86_400)]),
      );
      await expect(
        ctx.publicClient.readContract({ address: old.escrow, abi: taskEscrowArtifact.abi, functionName: 'taskCount' }),
      ).resolves.toBe(3n);
      // v2 has no releaseSplit at all: the call reverts without a reason.
      await expect(
        on(old.escrow, ctx.operator.walletClient).write.releaseSplit([1n, [ctx.agent.address], [2n * USDC], 0]),
      ).rejects.toThrow();
      await ctx.mined(on(old.escrow, ctx.operator.walletClient).write.release([1n, ctx.agent.address, 1_000]));
      await ctx.mined(on(old.escrow, ctx.operator.walletClient).write.refund([2n]));
      await passTime(ctx, 120);
      await ctx.mined(v2Client.write.reclaim([3n]));
      await ctx.mined(
        on(v3, ctx.operator.walletClient).write.releaseSplit([
          1n,
          [ctx.agent.address, ctx.stranger.address],
          [2n * USDC, 1_600_000n],
          1_000,
        ]),
      );
      await ctx.mined(on(old.escrow, ctx.agent.walletClient).write.claim());
      await ctx.mined(on(v3, ctx.agent.walletClient).write.claim());
      await ctx.mined(v2Client.write.claim());
      expect(await token.read.balanceOf([ctx.agent.address])).toBe(1_800_000n + 2n * USDC);
      expect(await token.read.balanceOf([ctx.client.address])).toBe(4n * USDC);
      expect(await token.read.balanceOf([old.escrow])).toBe(200_000n); // v2's fee, owed to the fee recipient
      expect(await token.read.balanceOf([v3])).toBe(1_600_000n + 400_000n);
    },
  );
});
