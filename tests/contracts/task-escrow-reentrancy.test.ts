// TaskEscrow against a token that calls back into the escrow while being paid out: the nested call
// must fail and every beneficiary is paid exactly once.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { decodeErrorResult, encodeFunctionData, getContract, parseAbi, type Abi, type Address, type Hex } from 'viem';
import { taskEscrowArtifact } from '@/lib/chain/artifacts';
import { ESCROW_ARTIFACTS } from '@/lib/chain/deploy';
import { useContractsChain, type ChainContext, ESCROW_VERSIONS } from '../support/contracts/chain-fixture';
import { expiryIn, missionRef, USDC } from '../support/contracts/escrow-steps';

describe.each(ESCROW_VERSIONS)('TaskEscrow %s', (version) => {
  const chain = useContractsChain(version);

  // Compiled from contracts/test/ReentrantToken.sol by `npm run contracts:compile` (test-only, not in lib/).
  const reentrantToken = JSON.parse(
    readFileSync(new URL('../../contracts/out/test/ReentrantToken.json', import.meta.url), 'utf8'),
  ) as { abi: Abi; bytecode: Hex };
  const tokenAbi = parseAbi([
    'function mint(address to, uint256 amount)',
    'function approve(address spender, uint256 amount) returns (bool)',
    'function balanceOf(address owner) view returns (uint256)',
    'function arm(address escrow, bytes data)',
    'function reentryAttempted() view returns (bool)',
    'function reentrySucceeded() view returns (bool)',
    'function reentryResult() view returns (bytes)',
  ]);

  /**
   * An escrow whose reward token is the malicious one, with a 10 USDC task released at a 10% fee to
   * the agent — or, with `tokenIsAgent`, to the token contract itself, which then receives the payout.
   */
  async function escrowWithReentrantToken(ctx: ChainContext, { tokenIsAgent }: { tokenIsAgent: boolean }) {
    const deploy = async (abi: Abi, bytecode: Hex, args: readonly unknown[]) => {
      const receipt = await ctx.mined(ctx.operator.walletClient.deployContract({ abi, bytecode, args }));
      return receipt.contractAddress!;
    };
    const tokenAddress = await deploy(reentrantToken.abi, reentrantToken.bytecode, []);
    const escrowAddress = await deploy(ESCROW_ARTIFACTS[version].abi, ESCROW_ARTIFACTS[version].bytecode, [
      tokenAddress,
      ctx.owner.address,
      ctx.operator.address,
      ctx.feeRecipient.address,
      1_000,
    ]);
    const bind = (wallet: typeof ctx.client.walletClient) => ({
      token: getContract({ address: tokenAddress, abi: tokenAbi, client: { public: ctx.publicClient, wallet } }),
      escrow: getContract({
        address: escrowAddress,
        abi: taskEscrowArtifact.abi,
        client: { public: ctx.publicClient, wallet },
      }),
    });
    const asClient = bind(ctx.client.walletClient);
    await ctx.mined(asClient.token.write.mint([ctx.client.address, 10n * USDC]));
    await ctx.mined(asClient.token.write.approve([escrowAddress, 10n * USDC]));
    await ctx.mined(
      asClient.escrow.write.createTask([10n * USDC, missionRef('reentrancy'), await expiryIn(ctx, 86_400)]),
    );
    const agent: Address = tokenIsAgent ? tokenAddress : ctx.agent.address;
    await ctx.mined(bind(ctx.operator.walletClient).escrow.write.release([1n, agent, 1_000]));
    return { tokenAddress, escrowAddress, bind };
  }

  type Bound = ReturnType<Awaited<ReturnType<typeof escrowWithReentrantToken>>['bind']>;

  /** How the token's nested call into the escrow ended, with the escrow's error decoded. */
  async function reentryOutcome(token: Bound['token']) {
    const result = await token.read.reentryResult();
    return {
      attempted: await token.read.reentryAttempted(),
      succeeded: await token.read.reentrySucceeded(),
      error: result === '0x' ? undefined : decodeErrorResult({ abi: taskEscrowArtifact.abi, data: result }).errorName,
    };
  }

  describe('TaskEscrow reentrancy', () => {
    test('a beneficiary contract re-entering claim while being paid is refused and paid once', async () => {
      const ctx = chain();
      // The token contract is itself the agent: on receiving its payout it calls claim() again.
      const { tokenAddress, escrowAddress, bind } = await escrowWithReentrantToken(ctx, { tokenIsAgent: true });
      const asStranger = bind(ctx.stranger.walletClient);
      await ctx.mined(
        asStranger.token.write.arm([
          escrowAddress,
          encodeFunctionData({ abi: taskEscrowArtifact.abi, functionName: 'claim' }),
        ]),
      );
      await ctx.mined(asStranger.escrow.write.claimFor([tokenAddress]));
      expect(await reentryOutcome(asStranger.token)).toEqual({
        attempted: true,
        succeeded: false,
        error: 'ReentrancyGuardReentrantCall',
      });
      expect(await asStranger.token.read.balanceOf([tokenAddress])).toBe(9n * USDC);
      expect(await asStranger.escrow.read.claimable([tokenAddress])).toBe(0n);
      expect(await asStranger.token.read.balanceOf([escrowAddress])).toBe(USDC); // the fee, still owed
    });

    test('a payout cannot be used to run a second payout to someone else', async () => {
      const ctx = chain();
      const { escrowAddress, bind } = await escrowWithReentrantToken(ctx, { tokenIsAgent: false });
      const asAgent = bind(ctx.agent.walletClient);
      const feeClaim = encodeFunctionData({
        abi: taskEscrowArtifact.abi,
        functionName: 'claimFor',
        args: [ctx.feeRecipient.address],
      });
      await ctx.mined(asAgent.token.write.arm([escrowAddress, feeClaim]));
      await ctx.mined(asAgent.escrow.write.claim());
      expect(await reentryOutcome(asAgent.token)).toMatchObject({
        succeeded: false,
        error: 'ReentrancyGuardReentrantCall',
      });
      expect(await asAgent.token.read.balanceOf([ctx.agent.address])).toBe(9n * USDC);
      // The fee recipient's credit was untouched by the failed nested call and pays out normally.
      expect(await asAgent.escrow.read.claimable([ctx.feeRecipient.address])).toBe(USDC);
      await ctx.mined(bind(ctx.feeRecipient.walletClient).escrow.write.claim());
      expect(await asAgent.token.read.balanceOf([ctx.feeRecipient.address])).toBe(USDC);
    });
  });
});
