// TaskEscrow v2 (docs/api.md#escrow): a client's money never depends on the backend — an expired task is
// reclaimable by its client alone, a reclaim and a release in one block have one winner, expiry
// only moves later, the fee is capped for life, a leaked operator key is replaced by the owner
// (two-step ownership), and a token that returns no bool still works.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { type Abi, getContract, type Hex, parseAbi, parseEventLogs } from 'viem';
import { taskEscrowArtifact } from '@/lib/chain/artifacts';
import { ESCROW_ARTIFACTS } from '@/lib/chain/deploy';
import {
  type ChainContext,
  expectRevert,
  useContractsChain,
  ESCROW_VERSIONS,
} from '../support/contracts/chain-fixture';
import { expiryIn, missionRef, openTask, USDC } from '../support/contracts/escrow-steps';

describe.each(ESCROW_VERSIONS)('TaskEscrow %s', (version) => {
  const chain = useContractsChain(version);
  const abi = taskEscrowArtifact.abi;
  const DAY = 86_400;

  /** Moves the chain's clock forward and mines a block there (evm_increaseTime + evm_mine). */
  async function passTime(ctx: ChainContext, seconds: number) {
    await ctx.testClient.increaseTime({ seconds });
    await ctx.testClient.mine({ blocks: 1 });
  }

  describe('reclaim', () => {
    test(
      'before expiresAt the client cannot reclaim; from expiresAt on it moves the whole ' +
        'amount to its own claimable balance',
      async () => {
        const ctx = chain();
        const taskId = await openTask(ctx, 5n * USDC, ctx.client, missionRef('r'), await expiryIn(ctx, DAY));
        await expectRevert(ctx.client.escrow.write.reclaim([taskId]), 'NotExpired');
        await passTime(ctx, DAY);
        const receipt = await ctx.mined(ctx.client.escrow.write.reclaim([taskId]));
        expect(await ctx.client.escrow.read.claimable([ctx.client.address])).toBe(5n * USDC);
        expect((await ctx.client.escrow.read.tasks([taskId]))[2]).toBe(4); // Reclaimed
        const [event] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskReclaimed' });
        expect(event?.args).toEqual({ taskId, client: ctx.client.address, amount: 5n * USDC });
        await ctx.mined(ctx.client.escrow.write.claim());
        expect(await ctx.client.token.read.balanceOf([ctx.client.address])).toBe(5n * USDC);
      },
    );

    test(
      'nobody but the client reclaims, not even the operator or the owner; a settled task ' + 'cannot be reclaimed',
      async () => {
        const ctx = chain();
        const taskId = await openTask(ctx, USDC, ctx.client, missionRef('r'), await expiryIn(ctx, 60));
        const released = await openTask(ctx, USDC, ctx.client, missionRef('s'), await expiryIn(ctx, 60));
        await ctx.mined(ctx.operator.escrow.write.release([released, ctx.agent.address, 0]));
        await passTime(ctx, 120);
        for (const who of [ctx.operator, ctx.owner, ctx.agent, ctx.stranger])
          await expectRevert(who.escrow.write.reclaim([taskId]), 'NotTaskClient');
        await expectRevert(ctx.client.escrow.write.reclaim([released]), 'TaskNotOpen');
        await ctx.mined(ctx.client.escrow.write.reclaim([taskId]));
        await expectRevert(ctx.client.escrow.write.reclaim([taskId]), 'TaskNotOpen');
        // After a reclaim the operator can neither release nor refund it.
        await expectRevert(ctx.operator.escrow.write.release([taskId, ctx.agent.address, 0]), 'TaskNotOpen');
        await expectRevert(ctx.operator.escrow.write.refund([taskId]), 'TaskNotOpen');
      },
    );

    test(
      'a reclaim and a release sent into the same block: exactly one wins, and the money is ' + 'credited once',
      async () => {
        const ctx = chain();
        const taskId = await openTask(ctx, 3n * USDC, ctx.client, missionRef('race'), await expiryIn(ctx, 60));
        await passTime(ctx, 120);
        await ctx.testClient.setAutomine(false);
        try {
          const reclaim = await ctx.client.escrow.write.reclaim([taskId], { gas: 200_000n });
          const release = await ctx.operator.escrow.write.release([taskId, ctx.agent.address, 0], { gas: 200_000n });
          await ctx.testClient.mine({ blocks: 1 });
          const receipts = await Promise.all(
            [reclaim, release].map((hash) => ctx.publicClient.waitForTransactionReceipt({ hash })),
          );
          expect(receipts[0]!.blockNumber).toBe(receipts[1]!.blockNumber);
          expect(receipts.map((r) => r.status).sort()).toEqual(['reverted', 'success']);
        } finally {
          await ctx.testClient.setAutomine(true);
        }
        const credited =
          (await ctx.client.escrow.read.claimable([ctx.client.address])) +
          (await ctx.client.escrow.read.claimable([ctx.agent.address]));
        expect(credited).toBe(3n * USDC);
      },
    );
  });

  describe('expiry', () => {
    test(
      'createTask records expiresAt; extend by the client moves it later, never earlier or to ' + 'the same time',
      async () => {
        const ctx = chain();
        const first = await expiryIn(ctx, DAY);
        const taskId = await openTask(ctx, USDC, ctx.client, missionRef('e'), first);
        expect((await ctx.client.escrow.read.tasks([taskId]))[3]).toBe(first);
        await expectRevert(ctx.client.escrow.write.extend([taskId, first - 1n]), 'ExpiryNotLater');
        await expectRevert(ctx.client.escrow.write.extend([taskId, first]), 'ExpiryNotLater');
        await expectRevert(ctx.stranger.escrow.write.extend([taskId, first + DAY_N]), 'NotTaskClient');
        const receipt = await ctx.mined(ctx.client.escrow.write.extend([taskId, first + DAY_N]));
        expect((await ctx.client.escrow.read.tasks([taskId]))[3]).toBe(first + DAY_N);
        const [event] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskExtended' });
        expect(event?.args).toEqual({ taskId, expiresAt: first + DAY_N });
        // The old expiry no longer frees the task.
        await passTime(ctx, DAY + 10);
        await expectRevert(ctx.client.escrow.write.reclaim([taskId]), 'NotExpired');
      },
    );
  });

  const DAY_N = BigInt(DAY);

  describe('fees', () => {
    test('maxFeeBps is fixed at deployment and may not exceed 2000', async () => {
      const ctx = chain();
      expect(await ctx.client.escrow.read.maxFeeBps()).toBe(1_000);
      const deploy = (maxFeeBps: number) =>
        ctx.operator.walletClient.deployContract({
          abi,
          bytecode: ESCROW_ARTIFACTS[version].bytecode,
          args: [
            ctx.deployed.rewardToken,
            ctx.owner.address,
            ctx.operator.address,
            ctx.feeRecipient.address,
            maxFeeBps,
          ],
        });
      await expectRevert(deploy(2_001), 'MaxFeeTooHigh');
      const ok = await ctx.mined(deploy(2_000));
      expect(ok.contractAddress).toBeTruthy();
    });
  });

  describe('owner and operator', () => {
    test('setOperator by the owner: the old key can do nothing after, the new one can; events say who', async () => {
      const ctx = chain();
      const taskId = await openTask(ctx, USDC);
      await expectRevert(ctx.operator.escrow.write.setOperator([ctx.stranger.address]), 'OwnableUnauthorizedAccount');
      const receipt = await ctx.mined(ctx.owner.escrow.write.setOperator([ctx.stranger.address]));
      const [event] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'OperatorChanged' });
      expect(event?.args).toEqual({ previousOperator: ctx.operator.address, newOperator: ctx.stranger.address });
      expect(await ctx.client.escrow.read.operator()).toBe(ctx.stranger.address);
      await expectRevert(ctx.operator.escrow.write.release([taskId, ctx.agent.address, 0]), 'NotOperator');
      await expectRevert(ctx.operator.escrow.write.refund([taskId]), 'NotOperator');
      await ctx.mined(ctx.stranger.escrow.write.release([taskId, ctx.agent.address, 0]));
      await expectRevert(
        ctx.owner.escrow.write.setOperator(['0x0000000000000000000000000000000000000000']),
        'ZeroAddress',
      );
    });

    test('setFeeRecipient by the owner only, with its event; fees go to the new recipient', async () => {
      const ctx = chain();
      await expectRevert(
        ctx.operator.escrow.write.setFeeRecipient([ctx.stranger.address]),
        'OwnableUnauthorizedAccount',
      );
      const receipt = await ctx.mined(ctx.owner.escrow.write.setFeeRecipient([ctx.stranger.address]));
      const [event] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'FeeRecipientChanged' });
      expect(event?.args).toEqual({ previousRecipient: ctx.feeRecipient.address, newRecipient: ctx.stranger.address });
      const taskId = await openTask(ctx, USDC);
      await ctx.mined(ctx.operator.escrow.write.release([taskId, ctx.agent.address, 1_000]));
      expect(await ctx.client.escrow.read.claimable([ctx.stranger.address])).toBe(USDC / 10n);
    });

    test('ownership moves in two steps: nothing changes until the new owner accepts', async () => {
      const ctx = chain();
      await ctx.mined(ctx.owner.escrow.write.transferOwnership([ctx.stranger.address]));
      expect(await ctx.client.escrow.read.owner()).toBe(ctx.owner.address);
      expect(await ctx.client.escrow.read.pendingOwner()).toBe(ctx.stranger.address);
      await expectRevert(ctx.stranger.escrow.write.setOperator([ctx.stranger.address]), 'OwnableUnauthorizedAccount');
      await expectRevert(ctx.agent.escrow.write.acceptOwnership(), 'OwnableUnauthorizedAccount');
      await ctx.mined(ctx.stranger.escrow.write.acceptOwnership());
      expect(await ctx.client.escrow.read.owner()).toBe(ctx.stranger.address);
      await expectRevert(ctx.owner.escrow.write.setOperator([ctx.owner.address]), 'OwnableUnauthorizedAccount');
      await ctx.mined(ctx.stranger.escrow.write.setOperator([ctx.agent.address]));
    });
  });

  // Compiled from contracts/test/NoReturnToken.sol (test-only): transfer/transferFrom/approve return nothing.
  const noReturnTokenAbi = parseAbi([
    'function mint(address to, uint256 amount)',
    'function approve(address spender, uint256 amount)',
    'function balanceOf(address) view returns (uint256)',
  ]);
  const noReturnToken = JSON.parse(
    readFileSync(new URL('../../contracts/out/test/NoReturnToken.json', import.meta.url), 'utf8'),
  ) as {
    abi: Abi;
    bytecode: Hex;
  };

  describe('tokens without a return value', () => {
    test('createTask, release, reclaim and claim work with a token whose transfers return no bool', async () => {
      const ctx = chain();
      const deploy = async (contract: { abi: Abi; bytecode: Hex }, args: readonly unknown[]) =>
        (
          await ctx.mined(
            ctx.operator.walletClient.deployContract({ abi: contract.abi, bytecode: contract.bytecode, args }),
          )
        ).contractAddress!;
      const token = await deploy(noReturnToken, []);
      const escrow = await deploy(ESCROW_ARTIFACTS[version], [
        token,
        ctx.owner.address,
        ctx.operator.address,
        ctx.feeRecipient.address,
        1_000,
      ]);
      const bind = (wallet: typeof ctx.client.walletClient) => ({
        token: getContract({ address: token, abi: noReturnTokenAbi, client: { public: ctx.publicClient, wallet } }),
        escrow: getContract({ address: escrow, abi, client: { public: ctx.publicClient, wallet } }),
      });
      const client = bind(ctx.client.walletClient);
      await ctx.mined(client.token.write.mint([ctx.client.address, 4n * USDC]));
      await ctx.mined(client.token.write.approve([escrow, 4n * USDC]));
      await ctx.mined(client.escrow.write.createTask([2n * USDC, missionRef('a'), await expiryIn(ctx, DAY)]));
      await ctx.mined(client.escrow.write.createTask([2n * USDC, missionRef('b'), await expiryIn(ctx, 60)]));
      await ctx.mined(bind(ctx.operator.walletClient).escrow.write.release([1n, ctx.agent.address, 0]));
      await passTime(ctx, 120);
      await ctx.mined(client.escrow.write.reclaim([2n]));
      await ctx.mined(bind(ctx.agent.walletClient).escrow.write.claim());
      await ctx.mined(client.escrow.write.claim());
      expect(await client.token.read.balanceOf([ctx.agent.address])).toBe(2n * USDC);
      expect(await client.token.read.balanceOf([ctx.client.address])).toBe(2n * USDC);
      expect(await client.token.read.balanceOf([escrow])).toBe(0n);
    });
  });
});
