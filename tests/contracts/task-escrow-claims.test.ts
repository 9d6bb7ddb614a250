// TaskEscrow pull payments: claim and claimFor pay exactly what is owed, to the beneficiary only.
import { describe, expect, test } from 'vitest';
import { parseEventLogs } from 'viem';
import { taskEscrowArtifact } from '@/lib/chain/artifacts';
import { expectRevert, useContractsChain, ESCROW_VERSIONS } from '../support/contracts/chain-fixture';
import { openTask, releasedTask, USDC } from '../support/contracts/escrow-steps';

describe.each(ESCROW_VERSIONS)('TaskEscrow %s', (version) => {
  const chain = useContractsChain(version);

  describe('TaskEscrow claims', () => {
    test('claim pays the caller exactly its claimable balance and zeroes it', async () => {
      const ctx = chain();
      const { agent, deployed } = ctx;
      await releasedTask(ctx, 7n * USDC, 1_000);
      await openTask(ctx, 2n * USDC); // another client's money must stay in escrow
      const receipt = await ctx.mined(agent.escrow.write.claim());
      expect(await agent.token.read.balanceOf([agent.address])).toBe(6_300_000n);
      expect(await agent.escrow.read.claimable([agent.address])).toBe(0n);
      expect(await agent.token.read.balanceOf([deployed.escrow])).toBe(700_000n + 2n * USDC);
      const [event] = parseEventLogs({ abi: taskEscrowArtifact.abi, logs: receipt.logs, eventName: 'Claimed' });
      expect(event?.args).toEqual({ beneficiary: agent.address, amount: 6_300_000n });
    });

    test('claimFor by anyone pays the beneficiary, never the caller', async () => {
      const ctx = chain();
      const { agent, stranger, feeRecipient } = ctx;
      await releasedTask(ctx, 4n * USDC, 500);
      await ctx.mined(stranger.escrow.write.claimFor([agent.address]));
      await ctx.mined(stranger.escrow.write.claimFor([feeRecipient.address]));
      expect(await agent.token.read.balanceOf([agent.address])).toBe(3_800_000n);
      expect(await agent.token.read.balanceOf([feeRecipient.address])).toBe(200_000n);
      expect(await agent.token.read.balanceOf([stranger.address])).toBe(0n);
      expect(await agent.escrow.read.claimable([agent.address])).toBe(0n);
      expect(await agent.token.read.balanceOf([ctx.deployed.escrow])).toBe(0n);
    });

    test('credits from several tasks accumulate into one claim', async () => {
      const ctx = chain();
      await releasedTask(ctx, USDC);
      await releasedTask(ctx, 2n * USDC);
      expect(await ctx.agent.escrow.read.claimable([ctx.agent.address])).toBe(3n * USDC);
      await ctx.mined(ctx.agent.escrow.write.claim());
      expect(await ctx.agent.token.read.balanceOf([ctx.agent.address])).toBe(3n * USDC);
    });

    test('a refunded client claims its reward back', async () => {
      const ctx = chain();
      const taskId = await openTask(ctx, 5n * USDC);
      await ctx.mined(ctx.operator.escrow.write.refund([taskId]));
      await ctx.mined(ctx.client.escrow.write.claim());
      expect(await ctx.client.token.read.balanceOf([ctx.client.address])).toBe(5n * USDC);
    });

    test('claiming with nothing owed is refused, including a second claim', async () => {
      const ctx = chain();
      const { agent, stranger } = ctx;
      await expectRevert(stranger.escrow.write.claim(), 'NothingToClaim');
      await expectRevert(stranger.escrow.write.claimFor([agent.address]), 'NothingToClaim');
      await releasedTask(ctx, USDC);
      await ctx.mined(agent.escrow.write.claim());
      await expectRevert(agent.escrow.write.claim(), 'NothingToClaim');
      await expectRevert(stranger.escrow.write.claimFor([agent.address]), 'NothingToClaim');
      expect(await agent.token.read.balanceOf([agent.address])).toBe(USDC);
    });
  });
});
