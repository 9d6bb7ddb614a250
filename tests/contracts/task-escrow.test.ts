// TaskEscrow: funding tasks (createTask, topUp) and settling them (release, refund) once, by the operator.
import { describe, expect, test } from 'vitest';
import { parseEventLogs } from 'viem';
import { taskEscrowArtifact } from '@/lib/chain/artifacts';
import { expectRevert, useContractsChain, ESCROW_VERSIONS } from '../support/contracts/chain-fixture';
import { expiryIn, fund, missionRef, openTask, USDC } from '../support/contracts/escrow-steps';

describe.each(ESCROW_VERSIONS)('TaskEscrow %s', (version) => {
  const chain = useContractsChain(version);
  const abi = taskEscrowArtifact.abi;

  describe('TaskEscrow deployment', () => {
    test('names the reward token, operator and fee recipient it was deployed with', async () => {
      const { client, deployed, operator, feeRecipient } = chain();
      expect((await client.escrow.read.token()).toLowerCase()).toBe(deployed.rewardToken.toLowerCase());
      expect(await client.escrow.read.operator()).toBe(operator.address);
      expect(await client.escrow.read.feeRecipient()).toBe(feeRecipient.address);
      expect(await client.token.read.decimals()).toBe(6);
    });
  });

  describe('TaskEscrow funding', () => {
    test('createTask pulls the reward from the client and records an open task', async () => {
      const ctx = chain();
      const { client, mined, deployed } = ctx;
      await fund(ctx, client, 10n * USDC);
      const ref = missionRef('mission-1');
      const expiresAt = await expiryIn(ctx, 86_400);
      const receipt = await mined(client.escrow.write.createTask([4n * USDC, ref, expiresAt]));
      expect(await client.token.read.balanceOf([client.address])).toBe(6n * USDC);
      expect(await client.token.read.balanceOf([deployed.escrow])).toBe(4n * USDC);
      expect(await client.escrow.read.tasks([1n])).toEqual([client.address, 4n * USDC, 1, expiresAt]);
      const [event] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskCreated' });
      expect(event?.args).toEqual({ taskId: 1n, client: client.address, reward: 4n * USDC, ref });
    });

    test('task ids count up from 1 and unknown ids read as state None', async () => {
      const ctx = chain();
      expect(await openTask(ctx, USDC)).toBe(1n);
      expect(await openTask(ctx, USDC, ctx.stranger)).toBe(2n);
      expect(await ctx.client.escrow.read.tasks([3n])).toEqual([
        '0x0000000000000000000000000000000000000000',
        0n,
        0,
        0n,
      ]);
    });

    test(
      'createTask refuses a zero reward, a reward the client has not approved, and an expiry ' + 'not in the future',
      async () => {
        const ctx = chain();
        const later = await expiryIn(ctx, 3_600);
        await expectRevert(ctx.client.escrow.write.createTask([0n, missionRef('z'), later]), 'ZeroAmount');
        await ctx.mined(ctx.client.token.write.mint([ctx.client.address, USDC]));
        await expectRevert(
          ctx.client.escrow.write.createTask([USDC, missionRef('z'), later]),
          'ERC20InsufficientAllowance',
        );
        await ctx.mined(ctx.client.token.write.approve([ctx.deployed.escrow, USDC]));
        await expectRevert(
          ctx.client.escrow.write.createTask([USDC, missionRef('z'), await expiryIn(ctx, 0)]),
          'ExpiryNotInFuture',
        );
      },
    );

    test('topUp by the creator pulls the amount and raises the task amount', async () => {
      const ctx = chain();
      const taskId = await openTask(ctx, 2n * USDC);
      await fund(ctx, ctx.client, 3n * USDC);
      const receipt = await ctx.mined(ctx.client.escrow.write.topUp([taskId, 3n * USDC]));
      expect(await ctx.client.token.read.balanceOf([ctx.client.address])).toBe(0n);
      expect(await ctx.client.token.read.balanceOf([ctx.deployed.escrow])).toBe(5n * USDC);
      expect((await ctx.client.escrow.read.tasks([taskId])).slice(0, 3)).toEqual([ctx.client.address, 5n * USDC, 1]);
      const [event] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskToppedUp' });
      expect(event?.args).toEqual({ taskId, amount: 3n * USDC, newAmount: 5n * USDC });
    });

    test('topUp by anyone but the creator is refused', async () => {
      const ctx = chain();
      const taskId = await openTask(ctx, USDC);
      await fund(ctx, ctx.stranger, USDC);
      await expectRevert(ctx.stranger.escrow.write.topUp([taskId, USDC]), 'NotTaskClient');
      await expectRevert(ctx.operator.escrow.write.topUp([taskId, USDC]), 'NotTaskClient');
    });

    test('topUp of a settled or unknown task is refused', async () => {
      const ctx = chain();
      const taskId = await openTask(ctx, USDC);
      await ctx.mined(ctx.operator.escrow.write.refund([taskId]));
      await fund(ctx, ctx.client, USDC);
      await expectRevert(ctx.client.escrow.write.topUp([taskId, USDC]), 'TaskNotOpen');
      await expectRevert(ctx.client.escrow.write.topUp([99n, USDC]), 'TaskNotOpen');
    });
  });

  describe('TaskEscrow settlement', () => {
    test('only the operator may release or refund', async () => {
      const ctx = chain();
      const taskId = await openTask(ctx, USDC);
      for (const who of [ctx.client, ctx.agent, ctx.stranger]) {
        await expectRevert(who.escrow.write.release([taskId, ctx.agent.address, 0]), 'NotOperator');
        await expectRevert(who.escrow.write.refund([taskId]), 'NotOperator');
      }
      expect((await ctx.client.escrow.read.tasks([taskId]))[2]).toBe(1);
    });

    test('release credits the agent the reward less the fee and the fee recipient the fee', async () => {
      const ctx = chain();
      const { operator, agent, feeRecipient } = ctx;
      const taskId = await openTask(ctx, 1_000_001n);
      const receipt = await ctx.mined(operator.escrow.write.release([taskId, agent.address, 250]));
      // 2.5% of 1_000_001 is 25_000.025: the fee rounds down, the agent keeps the remainder.
      expect(await agent.escrow.read.claimable([agent.address])).toBe(975_001n);
      expect(await agent.escrow.read.claimable([feeRecipient.address])).toBe(25_000n);
      expect((await agent.escrow.read.tasks([taskId])).slice(0, 3)).toEqual([ctx.client.address, 1_000_001n, 2]);
      const [event] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskReleased' });
      expect(event?.args).toEqual({ taskId, agent: agent.address, agentAmount: 975_001n, fee: 25_000n });
      // Crediting moves no tokens; they stay in escrow until claimed.
      expect(await agent.token.read.balanceOf([agent.address])).toBe(0n);
    });

    test('release accepts fees of 0 and maxFeeBps (1000) and refuses 1001 with FeeTooHigh', async () => {
      const ctx = chain();
      const { operator, agent, feeRecipient } = ctx;
      const first = await openTask(ctx, USDC);
      const second = await openTask(ctx, USDC);
      const third = await openTask(ctx, USDC);
      await ctx.mined(operator.escrow.write.release([first, agent.address, 0]));
      await ctx.mined(operator.escrow.write.release([second, agent.address, 1_000]));
      await expectRevert(operator.escrow.write.release([third, agent.address, 1_001]), 'FeeTooHigh');
      await expectRevert(operator.escrow.write.release([third, agent.address, 10_000]), 'FeeTooHigh');
      expect(await agent.escrow.read.maxFeeBps()).toBe(1_000);
      expect(await agent.escrow.read.claimable([agent.address])).toBe(2n * USDC - USDC / 10n);
      expect(await agent.escrow.read.claimable([feeRecipient.address])).toBe(USDC / 10n);
    });

    test('refund credits the client the whole amount', async () => {
      const ctx = chain();
      const taskId = await openTask(ctx, 3n * USDC);
      const receipt = await ctx.mined(ctx.operator.escrow.write.refund([taskId]));
      expect(await ctx.client.escrow.read.claimable([ctx.client.address])).toBe(3n * USDC);
      expect((await ctx.client.escrow.read.tasks([taskId]))[2]).toBe(3);
      const [event] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskRefunded' });
      expect(event?.args).toEqual({ taskId, client: ctx.client.address, amount: 3n * USDC });
    });

    test('a task is settled at most once, by release or refund', async () => {
      const ctx = chain();
      const { operator, agent } = ctx;
      const released = await openTask(ctx, USDC);
      const refunded = await openTask(ctx, USDC);
      await ctx.mined(operator.escrow.write.release([released, agent.address, 0]));
      await ctx.mined(operator.escrow.write.refund([refunded]));
      for (const taskId of [released, refunded]) {
        await expectRevert(operator.escrow.write.release([taskId, agent.address, 0]), 'TaskNotOpen');
        await expectRevert(operator.escrow.write.refund([taskId]), 'TaskNotOpen');
      }
      expect(await agent.escrow.read.claimable([agent.address])).toBe(USDC);
      expect(await agent.escrow.read.claimable([ctx.client.address])).toBe(USDC);
    });

    test('release and refund of an unknown task are refused', async () => {
      const { operator, agent } = chain();
      await expectRevert(operator.escrow.write.release([1n, agent.address, 0]), 'TaskNotOpen');
      await expectRevert(operator.escrow.write.refund([1n]), 'TaskNotOpen');
    });
  });
});
