// TaskEscrowV5 (docs/escrow.md#escrow-v5): `settle` pays part of a task's remainder to the agent
// (less the fee on that part only) and refunds the rest in one call; `releasePart` pays part and
// keeps the task open, so v4's release, refund and reclaim act on the remainder only — and the
// client's reclaim of it after expiresAt is still unstoppable; both are operator-only, fee-capped
// and under the reentrancy lock. The funding mandate: an EOA's or an ERC-1271 wallet's one EIP-712
// signature lets one funder open tasks for the client, within perMission and perDay (per UTC day),
// until validUntil, revocable directly or by a relayed signature; forged, replayed and stale
// signatures are refused; a front-run permit is tolerated. A v4 deployment keeps settling its tasks
// beside v5.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  type Abi,
  decodeErrorResult,
  encodeFunctionData,
  getAddress,
  getContract,
  hashTypedData,
  type Hex,
  keccak256,
  parseAbi,
  parseEventLogs,
  toHex,
  zeroAddress,
} from 'viem';
import { mockUsdcArtifact, taskEscrowV4Artifact, taskEscrowV5Artifact } from '@/lib/chain/artifacts';
import { deployContracts, deployEscrow } from '@/lib/chain/deploy';
import { type ChainContext, expectRevert, useContractsChain } from '../support/contracts/chain-fixture';
import { expiryIn, fund, missionRef, openTask, USDC } from '../support/contracts/escrow-steps';
import {
  type FundingMandate,
  mandateArg,
  mandateTypedData,
  permitTypedData,
  revocationTypedData,
} from '../support/contracts/funding-mandate';

const chain = useContractsChain('v5');
const abi = taskEscrowV5Artifact.abi;
const DAY = 86_400;
const STATE = { Open: 1, Released: 2, Refunded: 3, Reclaimed: 4 } as const;
type Actor = ChainContext['client'];

async function passTime(ctx: ChainContext, seconds: number | bigint) {
  await ctx.testClient.increaseTime({ seconds: Number(seconds) });
  await ctx.testClient.mine({ blocks: 1 });
}

async function now(ctx: ChainContext): Promise<bigint> {
  return (await ctx.publicClient.getBlock()).timestamp;
}

async function taskOf(ctx: ChainContext, taskId: bigint) {
  const [client, amount, state, expiresAt] = await ctx.client.escrow.read.tasks([taskId]);
  return { client, amount, state, expiresAt };
}

/** Every credit the escrow owes, against the tokens it holds: they must agree to the unit. */
async function expectSolvent(ctx: ChainContext, openRemainders: bigint[] = []) {
  const holders = [ctx.client, ctx.agent, ctx.feeRecipient, ctx.stranger].map((a) => a.address);
  let owed = openRemainders.reduce((a, b) => a + b, 0n);
  for (const h of holders) owed += await ctx.client.escrow.read.claimable([h]);
  expect(await ctx.client.token.read.balanceOf([ctx.deployed.escrow])).toBe(owed);
}

describe('settle', () => {
  test('credits the agent its part less the fee on that part only, refunds the rest, closes the task', async () => {
    const ctx = chain();
    const reward = 10_000_001n; // odd, so the fee on a part rounds
    const taskId = await openTask(ctx, reward);
    const part = 3_333_333n;
    const receipt = await ctx.mined(ctx.operator.escrow.write.settle([taskId, ctx.agent.address, part, 1_000]));
    // 10 % of 3_333_333 is 333_333.3: rounded down, in the agent's favour.
    const fee = 333_333n;
    const [settled] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskSettled' });
    expect(settled!.args).toEqual({ taskId, agent: ctx.agent.address, agentAmount: part, fee, refund: reward - part });
    expect(await ctx.client.escrow.read.claimable([ctx.agent.address])).toBe(part - fee);
    expect(await ctx.client.escrow.read.claimable([ctx.feeRecipient.address])).toBe(fee);
    expect(await ctx.client.escrow.read.claimable([ctx.client.address])).toBe(reward - part);
    expect(await taskOf(ctx, taskId)).toMatchObject({ amount: 0n, state: STATE.Released });
    expect(await ctx.client.escrow.read.released([taskId])).toBe(part);
    await expectSolvent(ctx);
    // Settled once: nothing further moves it.
    await expectRevert(ctx.operator.escrow.write.settle([taskId, ctx.agent.address, 0n, 0]), 'TaskNotOpen');
    await expectRevert(ctx.operator.escrow.write.refund([taskId]), 'TaskNotOpen');
    await expectRevert(ctx.operator.escrow.write.release([taskId, ctx.agent.address, 0]), 'TaskNotOpen');
    // Everyone claims exactly their part; the escrow ends empty.
    for (const who of [ctx.agent, ctx.feeRecipient, ctx.client]) await ctx.mined(who.escrow.write.claim());
    expect(await ctx.client.token.read.balanceOf([ctx.agent.address])).toBe(part - fee);
    expect(await ctx.client.token.read.balanceOf([ctx.feeRecipient.address])).toBe(fee);
    expect(await ctx.client.token.read.balanceOf([ctx.client.address])).toBe(reward - part);
    expect(await ctx.client.token.read.balanceOf([ctx.deployed.escrow])).toBe(0n);
  });

  test('odd amounts: the fee rounds down on the part, for every fee up to the ceiling', async () => {
    const ctx = chain();
    for (const [part, feeBps] of [
      [1n, 1_000],
      [9n, 1_000],
      [11n, 1_000],
      [19_999n, 999],
      [7_777_777n, 333],
      [1_000_001n, 1],
    ] as const) {
      const taskId = await openTask(ctx, 10n * USDC);
      const before = await ctx.client.escrow.read.claimable([ctx.agent.address]);
      const receipt = await ctx.mined(ctx.operator.escrow.write.settle([taskId, ctx.agent.address, part, feeBps]));
      const [settled] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskSettled' });
      const fee = (part * BigInt(feeBps)) / 10_000n;
      expect(settled!.args.fee).toBe(fee);
      expect(settled!.args.refund).toBe(10n * USDC - part);
      expect((await ctx.client.escrow.read.claimable([ctx.agent.address])) - before).toBe(part - fee);
    }
    await expectSolvent(ctx);
  });

  test('agentAmount 0 refunds all (Refunded, no fee); agentAmount = remainder pays it all (no refund)', async () => {
    const ctx = chain();
    const none = await openTask(ctx, 4n * USDC);
    const all = await openTask(ctx, 6n * USDC);
    await ctx.mined(ctx.operator.escrow.write.settle([none, ctx.agent.address, 0n, 1_000]));
    expect(await taskOf(ctx, none)).toMatchObject({ amount: 0n, state: STATE.Refunded });
    expect(await ctx.client.escrow.read.claimable([ctx.client.address])).toBe(4n * USDC);
    expect(await ctx.client.escrow.read.claimable([ctx.agent.address])).toBe(0n);
    expect(await ctx.client.escrow.read.claimable([ctx.feeRecipient.address])).toBe(0n);

    const receipt = await ctx.mined(ctx.operator.escrow.write.settle([all, ctx.agent.address, 6n * USDC, 1_000]));
    const [settled] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskSettled' });
    expect(settled!.args).toMatchObject({ agentAmount: 6n * USDC, fee: 600_000n, refund: 0n });
    expect(await taskOf(ctx, all)).toMatchObject({ amount: 0n, state: STATE.Released });
    expect(await ctx.client.escrow.read.claimable([ctx.client.address])).toBe(4n * USDC); // unchanged
    expect(await ctx.client.escrow.read.claimable([ctx.agent.address])).toBe(5_400_000n);
    await expectSolvent(ctx);
  });

  test('an agentAmount over the remainder is refused, to the unit', async () => {
    const ctx = chain();
    const taskId = await openTask(ctx, 5n * USDC);
    await expectRevert(
      ctx.operator.escrow.write.settle([taskId, ctx.agent.address, 5n * USDC + 1n, 0]),
      'AmountOverRemainder',
    );
    // After a part is released the bound is what remains, not the reward.
    await ctx.mined(ctx.operator.escrow.write.releasePart([taskId, ctx.agent.address, 2n * USDC, 0]));
    await expectRevert(
      ctx.operator.escrow.write.settle([taskId, ctx.agent.address, 3n * USDC + 1n, 0]),
      'AmountOverRemainder',
    );
    await ctx.mined(ctx.operator.escrow.write.settle([taskId, ctx.agent.address, 3n * USDC, 0]));
    expect(await ctx.client.escrow.read.released([taskId])).toBe(5n * USDC);
    expect(await ctx.client.escrow.read.claimable([ctx.client.address])).toBe(0n);
  });

  test('operator only, within the fee ceiling, to a real agent, on an open task', async () => {
    const ctx = chain();
    const taskId = await openTask(ctx, 5n * USDC);
    for (const who of [ctx.client, ctx.agent, ctx.owner, ctx.stranger])
      await expectRevert(who.escrow.write.settle([taskId, ctx.agent.address, USDC, 0]), 'NotOperator');
    await expectRevert(ctx.operator.escrow.write.settle([taskId, ctx.agent.address, USDC, 1_001]), 'FeeTooHigh');
    await expectRevert(ctx.operator.escrow.write.settle([taskId, zeroAddress, USDC, 0]), 'ZeroAddress');
    await expectRevert(ctx.operator.escrow.write.settle([99n, ctx.agent.address, 0n, 0]), 'TaskNotOpen');
    // The ceiling itself is allowed.
    await ctx.mined(ctx.operator.escrow.write.settle([taskId, ctx.agent.address, USDC, 1_000]));
  });

  test('a settled task cannot be reclaimed; a reclaimed one cannot be settled', async () => {
    const ctx = chain();
    const settled = await openTask(ctx, 2n * USDC, ctx.client, missionRef('a'), await expiryIn(ctx, 60));
    const reclaimed = await openTask(ctx, 2n * USDC, ctx.client, missionRef('b'), await expiryIn(ctx, 60));
    await ctx.mined(ctx.operator.escrow.write.settle([settled, ctx.agent.address, USDC, 0]));
    await passTime(ctx, 120);
    await expectRevert(ctx.client.escrow.write.reclaim([settled]), 'TaskNotOpen');
    await ctx.mined(ctx.client.escrow.write.reclaim([reclaimed]));
    await expectRevert(ctx.operator.escrow.write.settle([reclaimed, ctx.agent.address, USDC, 0]), 'TaskNotOpen');
    await expectSolvent(ctx);
  });
});

describe('releasePart', () => {
  test('credits each part less its fee and keeps the task open with the rest; the last part closes it', async () => {
    const ctx = chain();
    const taskId = await openTask(ctx, 10n * USDC);
    const receipt = await ctx.mined(
      ctx.operator.escrow.write.releasePart([taskId, ctx.agent.address, 3n * USDC + 3n, 1_000]),
    );
    const [part] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskPartReleased' });
    expect(part!.args).toEqual({
      taskId,
      agent: ctx.agent.address,
      amount: 3n * USDC + 3n,
      fee: 300_000n,
      remaining: 7n * USDC - 3n,
    });
    expect(await taskOf(ctx, taskId)).toMatchObject({ amount: 7n * USDC - 3n, state: STATE.Open });
    expect(await ctx.client.escrow.read.released([taskId])).toBe(3n * USDC + 3n);
    expect(await ctx.client.escrow.read.claimable([ctx.agent.address])).toBe(2_700_003n);
    await expectSolvent(ctx, [7n * USDC - 3n]);

    await ctx.mined(ctx.operator.escrow.write.releasePart([taskId, ctx.agent.address, 7n * USDC - 3n, 1_000]));
    expect(await taskOf(ctx, taskId)).toMatchObject({ amount: 0n, state: STATE.Released });
    expect(await ctx.client.escrow.read.released([taskId])).toBe(10n * USDC);
    // 300_000 + 699_999 (10 % of 6_999_997, rounded down)
    expect(await ctx.client.escrow.read.claimable([ctx.feeRecipient.address])).toBe(999_999n);
    expect(await ctx.client.escrow.read.claimable([ctx.agent.address])).toBe(10n * USDC - 999_999n);
    await expectSolvent(ctx);
    await expectRevert(ctx.operator.escrow.write.releasePart([taskId, ctx.agent.address, 1n, 0]), 'TaskNotOpen');
  });

  test('over-release is refused: a part over the remainder, by one unit, and a zero part', async () => {
    const ctx = chain();
    const taskId = await openTask(ctx, 5n * USDC);
    await expectRevert(
      ctx.operator.escrow.write.releasePart([taskId, ctx.agent.address, 5n * USDC + 1n, 0]),
      'AmountOverRemainder',
    );
    await ctx.mined(ctx.operator.escrow.write.releasePart([taskId, ctx.agent.address, 4n * USDC, 0]));
    await expectRevert(
      ctx.operator.escrow.write.releasePart([taskId, ctx.agent.address, USDC + 1n, 0]),
      'AmountOverRemainder',
    );
    await expectRevert(ctx.operator.escrow.write.releasePart([taskId, ctx.agent.address, 0n, 0]), 'ZeroAmount');
    expect(await ctx.client.escrow.read.released([taskId])).toBe(4n * USDC);
  });

  test('operator only, within the fee ceiling, to a real agent', async () => {
    const ctx = chain();
    const taskId = await openTask(ctx, 5n * USDC);
    for (const who of [ctx.client, ctx.agent, ctx.owner, ctx.stranger])
      await expectRevert(who.escrow.write.releasePart([taskId, ctx.agent.address, USDC, 0]), 'NotOperator');
    await expectRevert(ctx.operator.escrow.write.releasePart([taskId, ctx.agent.address, USDC, 1_001]), 'FeeTooHigh');
    await expectRevert(ctx.operator.escrow.write.releasePart([taskId, zeroAddress, USDC, 0]), 'ZeroAddress');
  });

  test('after parts are released, settle, release and refund act on the remainder only', async () => {
    const ctx = chain();
    const [a, b, c] = [
      await openTask(ctx, 10n * USDC),
      await openTask(ctx, 10n * USDC),
      await openTask(ctx, 10n * USDC),
    ];
    for (const t of [a, b, c])
      await ctx.mined(ctx.operator.escrow.write.releasePart([t, ctx.agent.address, 4n * USDC, 0]));
    const agentAfterParts = 12n * USDC;
    expect(await ctx.client.escrow.read.claimable([ctx.agent.address])).toBe(agentAfterParts);

    await ctx.mined(ctx.operator.escrow.write.settle([a, ctx.agent.address, USDC, 0])); // 5 of the 6 refunded
    await ctx.mined(ctx.operator.escrow.write.release([b, ctx.agent.address, 1_000])); // the 6, less 10 %
    await ctx.mined(ctx.operator.escrow.write.refund([c])); // the 6 back
    expect(await ctx.client.escrow.read.claimable([ctx.agent.address])).toBe(agentAfterParts + USDC + 5_400_000n);
    expect(await ctx.client.escrow.read.claimable([ctx.feeRecipient.address])).toBe(600_000n);
    expect(await ctx.client.escrow.read.claimable([ctx.client.address])).toBe(5n * USDC + 6n * USDC);
    expect(await taskOf(ctx, a)).toMatchObject({ state: STATE.Released, amount: 0n });
    expect(await taskOf(ctx, c)).toMatchObject({ state: STATE.Refunded });
    await expectSolvent(ctx);
  });

  test('after a part is released the client reclaims the rest from expiresAt, and nobody can block it', async () => {
    const ctx = chain();
    const taskId = await openTask(ctx, 10n * USDC, ctx.client, missionRef('m'), await expiryIn(ctx, DAY));
    await ctx.mined(ctx.operator.escrow.write.releasePart([taskId, ctx.agent.address, 3n * USDC, 1_000]));
    await expectRevert(ctx.client.escrow.write.reclaim([taskId]), 'NotExpired');
    await passTime(ctx, DAY);
    for (const who of [ctx.operator, ctx.owner, ctx.agent, ctx.stranger])
      await expectRevert(who.escrow.write.reclaim([taskId]), 'NotTaskClient');
    const receipt = await ctx.mined(ctx.client.escrow.write.reclaim([taskId]));
    const [reclaimed] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskReclaimed' });
    expect(reclaimed!.args.amount).toBe(7n * USDC);
    expect(await ctx.client.escrow.read.claimable([ctx.client.address])).toBe(7n * USDC);
    // The part released before stays the agent's; nothing more can be taken from the task.
    expect(await ctx.client.escrow.read.claimable([ctx.agent.address])).toBe(2_700_000n);
    await expectRevert(ctx.operator.escrow.write.releasePart([taskId, ctx.agent.address, USDC, 0]), 'TaskNotOpen');
    await expectRevert(ctx.operator.escrow.write.settle([taskId, ctx.agent.address, 0n, 0]), 'TaskNotOpen');
    await expectSolvent(ctx);
  });

  test('a top-up after a part adds to the remainder', async () => {
    const ctx = chain();
    const taskId = await openTask(ctx, 4n * USDC);
    await ctx.mined(ctx.operator.escrow.write.releasePart([taskId, ctx.agent.address, 3n * USDC, 0]));
    await fund(ctx, ctx.client, 2n * USDC);
    await ctx.mined(ctx.client.escrow.write.topUp([taskId, 2n * USDC]));
    expect(await taskOf(ctx, taskId)).toMatchObject({ amount: 3n * USDC, state: STATE.Open });
    await ctx.mined(ctx.operator.escrow.write.settle([taskId, ctx.agent.address, 3n * USDC, 0]));
    expect(await ctx.client.escrow.read.released([taskId])).toBe(6n * USDC);
    await expectSolvent(ctx);
  });
});

describe('reentrancy', () => {
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

  /** A v5 escrow on the reentrant token, with `operator` as its operator; three 10-unit tasks of the client. */
  async function escrowOn(ctx: ChainContext, operator: (token: Hex) => Hex) {
    const deploy = async (a: Abi, bytecode: Hex, args: readonly unknown[]) =>
      (await ctx.mined(ctx.operator.walletClient.deployContract({ abi: a, bytecode, args }))).contractAddress!;
    const tokenAddress = await deploy(reentrantToken.abi, reentrantToken.bytecode, []);
    const escrowAddress = await deploy(taskEscrowV5Artifact.abi, taskEscrowV5Artifact.bytecode, [
      tokenAddress,
      ctx.owner.address,
      operator(tokenAddress),
      ctx.feeRecipient.address,
      1_000,
    ]);
    const bind = (who: Actor) => {
      const client = { public: ctx.publicClient, wallet: who.walletClient };
      return {
        token: getContract({ address: tokenAddress, abi: tokenAbi, client }),
        escrow: getContract({ address: escrowAddress, abi, client }),
      };
    };
    const asClient = bind(ctx.client);
    await ctx.mined(asClient.token.write.mint([ctx.client.address, 30n * USDC]));
    await ctx.mined(asClient.token.write.approve([escrowAddress, 30n * USDC]));
    for (const label of ['one', 'two', 'three'])
      await ctx.mined(asClient.escrow.write.createTask([10n * USDC, missionRef(label), await expiryIn(ctx, 60)]));
    return { tokenAddress, escrowAddress, bind };
  }

  /** How the token's nested call into the escrow ended, with the escrow's error decoded. */
  async function outcome(token: ReturnType<Awaited<ReturnType<typeof escrowOn>>['bind']>['token']) {
    const result = await token.read.reentryResult();
    return {
      attempted: await token.read.reentryAttempted(),
      succeeded: await token.read.reentrySucceeded(),
      error: result === '0x' ? undefined : decodeErrorResult({ abi, data: result }).errorName,
    };
  }

  test('a token that is also the operator cannot settle or release a part from inside a payout', async () => {
    const ctx = chain();
    const { escrowAddress, bind } = await escrowOn(ctx, (token) => token);
    const asClient = bind(ctx.client);
    await passTime(ctx, 120);
    // Tasks 1 and 3 are reclaimed; paying each out calls back into the escrow, as its operator, on task 2.
    const reentries = [
      [1n, encodeFunctionData({ abi, functionName: 'settle', args: [2n, ctx.agent.address, 10n * USDC, 0] })],
      [3n, encodeFunctionData({ abi, functionName: 'releasePart', args: [2n, ctx.agent.address, 5n * USDC, 0] })],
    ] as const;
    for (const [reclaimed, call] of reentries) {
      await ctx.mined(asClient.escrow.write.reclaim([reclaimed]));
      await ctx.mined(asClient.token.write.arm([escrowAddress, call]));
      await ctx.mined(asClient.escrow.write.claim());
      expect(await outcome(asClient.token)).toEqual({
        attempted: true,
        succeeded: false,
        error: 'ReentrancyGuardReentrantCall',
      });
    }
    expect(await asClient.token.read.balanceOf([ctx.client.address])).toBe(20n * USDC);
    expect(await asClient.escrow.read.claimable([ctx.agent.address])).toBe(0n);
    expect(await asClient.escrow.read.released([2n])).toBe(0n);
    const [, remainder, state] = await asClient.escrow.read.tasks([2n]);
    expect({ remainder, state }).toEqual({ remainder: 10n * USDC, state: STATE.Open });
  });

  test('an agent paid by settle cannot re-enter claim: paid once', async () => {
    const ctx = chain();
    const { tokenAddress, escrowAddress, bind } = await escrowOn(ctx, () => ctx.operator.address);
    const asOperator = bind(ctx.operator);
    // The token contract is the agent: on receiving its payout it calls claim() again.
    await ctx.mined(asOperator.escrow.write.settle([1n, tokenAddress, 6n * USDC, 1_000]));
    await ctx.mined(asOperator.escrow.write.releasePart([2n, tokenAddress, 2n * USDC, 1_000]));
    await ctx.mined(asOperator.token.write.arm([escrowAddress, encodeFunctionData({ abi, functionName: 'claim' })]));
    await ctx.mined(asOperator.escrow.write.claimFor([tokenAddress]));
    expect(await outcome(asOperator.token)).toEqual({
      attempted: true,
      succeeded: false,
      error: 'ReentrancyGuardReentrantCall',
    });
    expect(await asOperator.token.read.balanceOf([tokenAddress])).toBe(5_400_000n + 1_800_000n);
    expect(await asOperator.escrow.read.claimable([tokenAddress])).toBe(0n);
  });
});

// --- The funding mandate ------------------------------------------------------------------------

const chainId = (ctx: ChainContext) => ctx.publicClient.chain!.id;

/** The terms a client signs naming the operator key (the backend's relayer) as funder, a week long. */
async function termsFor(ctx: ChainContext, client: Hex, over: Partial<FundingMandate> = {}): Promise<FundingMandate> {
  return {
    client,
    funder: ctx.operator.address,
    perMission: 5n * USDC,
    perDay: 8n * USDC,
    validUntil: (await now(ctx)) + BigInt(7 * DAY),
    nonce: await ctx.client.escrow.read.mandateNonce([client]),
    ...over,
  };
}

const signMandate = (ctx: ChainContext, signer: Actor, m: FundingMandate) =>
  signer.account.signTypedData(mandateTypedData(chainId(ctx), ctx.deployed.escrow, m));

/** The client's EIP-2612 permit letting the escrow pull up to `value` (signed by `signer` for `owner`). */
async function signPermit(ctx: ChainContext, signer: Actor, owner: Hex, value: bigint, deadline: bigint) {
  return signer.account.signTypedData(
    permitTypedData(
      { chainId: chainId(ctx), address: ctx.deployed.rewardToken, name: 'Mock USDC' },
      { owner, spender: ctx.deployed.escrow, value, nonce: await ctx.client.token.read.nonces([owner]), deadline },
    ),
  );
}

/** Mints to the client and approves the escrow (a permit does the same; see the permit tests). */
async function clientWithAllowance(ctx: ChainContext, amount: bigint) {
  await fund(ctx, ctx.client, amount);
}

async function setMandate(ctx: ChainContext, m: FundingMandate, signer: Actor = ctx.client, relayer = ctx.stranger) {
  return ctx.mined(relayer.escrow.write.setFundingMandate([mandateArg(m), await signMandate(ctx, signer, m)]));
}

async function createFor(ctx: ChainContext, client: Hex, reward: bigint, funder: Actor = ctx.operator, label = 'x') {
  return funder.escrow.write.createTaskFor([client, reward, missionRef(label), await expiryIn(ctx, 3 * DAY)]);
}

describe('setFundingMandate', () => {
  test("anyone relays the client's EIP-712 signature; the domain and digest are the documented ones", async () => {
    const ctx = chain();
    const m = await termsFor(ctx, ctx.client.address);
    const [, name, version, domainChain, verifyingContract] = await ctx.client.escrow.read.eip712Domain();
    expect({ name, version, chainId: Number(domainChain), verifyingContract }).toEqual({
      name: 'TaskEscrow',
      version: '5',
      chainId: chainId(ctx),
      verifyingContract: getAddress(ctx.deployed.escrow),
    });
    expect(await ctx.client.escrow.read.fundingMandateDigest([mandateArg(m)])).toBe(
      hashTypedData(mandateTypedData(chainId(ctx), ctx.deployed.escrow, m)),
    );
    expect(await ctx.client.escrow.read.FUNDING_MANDATE_TYPEHASH()).toBe(
      keccak256(
        toHex(
          'FundingMandate(address client,address funder,uint256 perMission,uint256 perDay,' +
            'uint64 validUntil,uint256 nonce)',
        ),
      ),
    );
    const receipt = await setMandate(ctx, m);
    const [set] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'FundingMandateSet' });
    expect(set!.args).toEqual(m);
    expect(await ctx.client.escrow.read.fundingMandate([ctx.client.address])).toEqual([
      m.funder,
      m.perMission,
      m.perDay,
      m.validUntil,
      0n,
    ]);
    expect(await ctx.client.escrow.read.mandateNonce([ctx.client.address])).toBe(1n);
  });

  test('an ERC-1271 contract wallet sets a mandate (and its permit) by its owner signing for it', async () => {
    const ctx = chain();
    const ownedWallet = JSON.parse(
      readFileSync(new URL('../../contracts/out/test/OwnedWallet.json', import.meta.url), 'utf8'),
    ) as { abi: Abi; bytecode: Hex };
    const wallet = getAddress(
      (
        await ctx.mined(
          ctx.client.walletClient.deployContract({
            abi: ownedWallet.abi,
            bytecode: ownedWallet.bytecode,
            args: [ctx.client.address],
          }),
        )
      ).contractAddress!,
    );
    await ctx.mined(ctx.stranger.token.write.mint([wallet, 5n * USDC]));
    const m = await termsFor(ctx, wallet);
    const deadline = await expiryIn(ctx, DAY);
    const permit = await signPermit(ctx, ctx.client, wallet, 5n * USDC, deadline);
    await ctx.mined(
      ctx.stranger.escrow.write.setFundingMandateWithPermit([
        mandateArg(m),
        await signMandate(ctx, ctx.client, m),
        5n * USDC,
        deadline,
        permit,
      ]),
    );
    expect(await ctx.client.token.read.allowance([wallet, ctx.deployed.escrow])).toBe(5n * USDC);
    const receipt = await ctx.mined(createFor(ctx, wallet, 5n * USDC));
    const [funded] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskFundedByMandate' });
    expect(funded!.args).toEqual({ taskId: 1n, client: wallet, funder: ctx.operator.address, reward: 5n * USDC });
    expect((await taskOf(ctx, 1n)).client).toBe(wallet);
    // A signature by someone else than the wallet's owner is not the wallet's.
    const other = await termsFor(ctx, wallet);
    await expectRevert(
      ctx.stranger.escrow.write.setFundingMandate([mandateArg(other), await signMandate(ctx, ctx.stranger, other)]),
      'BadMandateSignature',
    );
  });

  test('forged: a stranger’s signature, or terms changed after signing, are refused', async () => {
    const ctx = chain();
    const m = await termsFor(ctx, ctx.client.address);
    await expectRevert(
      ctx.stranger.escrow.write.setFundingMandate([mandateArg(m), await signMandate(ctx, ctx.stranger, m)]),
      'BadMandateSignature',
    );
    const signature = await signMandate(ctx, ctx.client, m);
    for (const changed of [
      { ...m, perDay: m.perDay + 1n },
      { ...m, perMission: m.perMission + 1n },
      { ...m, validUntil: m.validUntil + 1n },
      { ...m, funder: ctx.stranger.address },
    ])
      await expectRevert(
        ctx.stranger.escrow.write.setFundingMandate([mandateArg(changed), signature]),
        'BadMandateSignature',
      );
    // Signed for another escrow (another verifying contract): not this one's.
    const elsewhere = await ctx.client.account.signTypedData(
      mandateTypedData(chainId(ctx), ctx.deployed.rewardToken, m),
    );
    await expectRevert(ctx.stranger.escrow.write.setFundingMandate([mandateArg(m), elsewhere]), 'BadMandateSignature');
    expect(await ctx.client.escrow.read.mandateNonce([ctx.client.address])).toBe(0n);
  });

  test('replayed: a used signature, an older one after a newer mandate, a nonce ahead', async () => {
    const ctx = chain();
    const first = await termsFor(ctx, ctx.client.address);
    const firstSig = await signMandate(ctx, ctx.client, first);
    await ctx.mined(ctx.stranger.escrow.write.setFundingMandate([mandateArg(first), firstSig]));
    await expectRevert(
      ctx.stranger.escrow.write.setFundingMandate([mandateArg(first), firstSig]),
      'MandateNonceMismatch',
    );
    const second = await termsFor(ctx, ctx.client.address, { perDay: 2n * USDC });
    expect(second.nonce).toBe(1n);
    await setMandate(ctx, second);
    await expectRevert(
      ctx.stranger.escrow.write.setFundingMandate([mandateArg(first), firstSig]),
      'MandateNonceMismatch',
    );
    expect((await ctx.client.escrow.read.fundingMandate([ctx.client.address]))[2]).toBe(2n * USDC);
    const ahead = await termsFor(ctx, ctx.client.address, { nonce: 5n });
    await expectRevert(
      ctx.stranger.escrow.write.setFundingMandate([mandateArg(ahead), await signMandate(ctx, ctx.client, ahead)]),
      'MandateNonceMismatch',
    );
  });

  test('expired: a mandate that ends now or earlier is refused; no zero client or funder', async () => {
    const ctx = chain();
    const stale = await termsFor(ctx, ctx.client.address, { validUntil: await now(ctx) });
    await expectRevert(
      ctx.stranger.escrow.write.setFundingMandate([mandateArg(stale), await signMandate(ctx, ctx.client, stale)]),
      'MandateExpired',
    );
    const noFunder = await termsFor(ctx, ctx.client.address, { funder: zeroAddress });
    await expectRevert(
      ctx.stranger.escrow.write.setFundingMandate([mandateArg(noFunder), await signMandate(ctx, ctx.client, noFunder)]),
      'ZeroAddress',
    );
  });
});

describe('createTaskFor', () => {
  test("the mandate's funder opens a task whose client is the person, pulling the reward from it", async () => {
    const ctx = chain();
    await clientWithAllowance(ctx, 5n * USDC);
    await setMandate(ctx, await termsFor(ctx, ctx.client.address));
    const funderTokens = await ctx.client.token.read.balanceOf([ctx.operator.address]);
    const receipt = await ctx.mined(createFor(ctx, ctx.client.address, 5n * USDC, ctx.operator, 'mission-1'));
    const [created] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskCreated' });
    expect(created!.args).toEqual({
      taskId: 1n,
      client: ctx.client.address,
      reward: 5n * USDC,
      ref: missionRef('mission-1'),
    });
    const [funded] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskFundedByMandate' });
    expect(funded!.args).toMatchObject({ client: ctx.client.address, funder: ctx.operator.address });
    expect(await taskOf(ctx, 1n)).toMatchObject({ client: ctx.client.address, amount: 5n * USDC, state: STATE.Open });
    expect(await ctx.client.token.read.balanceOf([ctx.client.address])).toBe(0n);
    expect(await ctx.client.token.read.balanceOf([ctx.deployed.escrow])).toBe(5n * USDC);
    expect(await ctx.client.token.read.balanceOf([ctx.operator.address])).toBe(funderTokens);
    const day = (await now(ctx)) / BigInt(DAY);
    expect(await ctx.client.escrow.read.fundedOn([ctx.client.address, day])).toBe(5n * USDC);
    // The funder holds no right over the task: only the client extends and reclaims it.
    const { expiresAt } = await taskOf(ctx, 1n);
    await expectRevert(ctx.operator.escrow.write.extend([1n, expiresAt + 1n]), 'NotTaskClient');
    await passTime(ctx, 3 * DAY);
    await expectRevert(ctx.operator.escrow.write.reclaim([1n]), 'NotTaskClient');
    await ctx.mined(ctx.client.escrow.write.reclaim([1n]));
  });

  test('another funder, or a client with no mandate, is refused', async () => {
    const ctx = chain();
    await clientWithAllowance(ctx, 5n * USDC);
    await setMandate(ctx, await termsFor(ctx, ctx.client.address));
    for (const who of [ctx.stranger, ctx.client, ctx.agent, ctx.owner])
      await expectRevert(createFor(ctx, ctx.client.address, USDC, who), 'NotMandateFunder');
    await expectRevert(createFor(ctx, ctx.agent.address, USDC), 'NotMandateFunder');
  });

  test('expired: from validUntil on the funder can open nothing', async () => {
    const ctx = chain();
    await clientWithAllowance(ctx, 5n * USDC);
    const m = await termsFor(ctx, ctx.client.address, { validUntil: (await now(ctx)) + 3_600n });
    await setMandate(ctx, m);
    await ctx.mined(createFor(ctx, ctx.client.address, USDC));
    await passTime(ctx, 3_600);
    await expectRevert(createFor(ctx, ctx.client.address, USDC), 'MandateExpired');
  });

  test('perMission: a reward at the cap opens, one unit over is refused; zero is refused', async () => {
    const ctx = chain();
    await clientWithAllowance(ctx, 10n * USDC);
    await setMandate(ctx, await termsFor(ctx, ctx.client.address, { perDay: 20n * USDC }));
    await expectRevert(createFor(ctx, ctx.client.address, 5n * USDC + 1n), 'OverPerMission');
    await expectRevert(createFor(ctx, ctx.client.address, 0n), 'ZeroAmount');
    await ctx.mined(createFor(ctx, ctx.client.address, 5n * USDC));
  });

  test('perDay per UTC day: the day fills to the unit, the next UTC day starts afresh', async () => {
    const ctx = chain();
    await clientWithAllowance(ctx, 30n * USDC);
    await setMandate(ctx, await termsFor(ctx, ctx.client.address));
    // Start just after a UTC midnight, so the day's tasks all fall on one day.
    const t = await now(ctx);
    await passTime(ctx, BigInt(DAY) - (t % BigInt(DAY)) + 10n);
    const today = (await now(ctx)) / BigInt(DAY);
    await ctx.mined(createFor(ctx, ctx.client.address, 5n * USDC, ctx.operator, 'a'));
    await ctx.mined(createFor(ctx, ctx.client.address, 3n * USDC, ctx.operator, 'b'));
    await expectRevert(createFor(ctx, ctx.client.address, 1n), 'OverPerDay');
    expect(await ctx.client.escrow.read.fundedOn([ctx.client.address, today])).toBe(8n * USDC);
    // Still the same UTC day some hours later.
    await passTime(ctx, 20 * 3_600);
    await expectRevert(createFor(ctx, ctx.client.address, 1n), 'OverPerDay');
    // Past the next midnight: a new day.
    await passTime(ctx, 4 * 3_600);
    expect((await now(ctx)) / BigInt(DAY)).toBe(today + 1n);
    await ctx.mined(createFor(ctx, ctx.client.address, 5n * USDC, ctx.operator, 'c'));
    await ctx.mined(createFor(ctx, ctx.client.address, 3n * USDC, ctx.operator, 'd'));
    await expectRevert(createFor(ctx, ctx.client.address, 1n), 'OverPerDay');
    expect(await ctx.client.escrow.read.fundedOn([ctx.client.address, today + 1n])).toBe(8n * USDC);
    expect(await ctx.client.escrow.read.fundedOn([ctx.client.address, today])).toBe(8n * USDC);
  });

  test('the allowance bounds it too: past it the token refuses the pull, and nothing is recorded', async () => {
    const ctx = chain();
    await clientWithAllowance(ctx, 2n * USDC);
    await ctx.mined(ctx.stranger.token.write.mint([ctx.client.address, 10n * USDC]));
    await setMandate(ctx, await termsFor(ctx, ctx.client.address));
    await expectRevert(createFor(ctx, ctx.client.address, 3n * USDC), 'ERC20InsufficientAllowance');
    expect(await ctx.client.escrow.read.taskCount()).toBe(0n);
    const day = (await now(ctx)) / BigInt(DAY);
    expect(await ctx.client.escrow.read.fundedOn([ctx.client.address, day])).toBe(0n);
  });
});

describe('revoking a mandate', () => {
  test('revokeFundingMandate by the client: the funder opens nothing, the old signature cannot undo it', async () => {
    const ctx = chain();
    await clientWithAllowance(ctx, 5n * USDC);
    const m = await termsFor(ctx, ctx.client.address);
    const signature = await signMandate(ctx, ctx.client, m);
    await ctx.mined(ctx.stranger.escrow.write.setFundingMandate([mandateArg(m), signature]));
    const receipt = await ctx.mined(ctx.client.escrow.write.revokeFundingMandate());
    const [revoked] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'FundingMandateRevoked' });
    expect(revoked!.args).toEqual({ client: ctx.client.address, nonce: 1n });
    expect(await ctx.client.escrow.read.mandateNonce([ctx.client.address])).toBe(2n);
    expect(await ctx.client.escrow.read.fundingMandate([ctx.client.address])).toEqual([zeroAddress, 0n, 0n, 0n, 0n]);
    await expectRevert(createFor(ctx, ctx.client.address, USDC), 'NotMandateFunder');
    await expectRevert(ctx.stranger.escrow.write.setFundingMandate([mandateArg(m), signature]), 'MandateNonceMismatch');
    // A stranger's revokeFundingMandate revokes only its own (none): the client's next mandate stands.
    await setMandate(ctx, await termsFor(ctx, ctx.client.address));
    await ctx.mined(ctx.stranger.escrow.write.revokeFundingMandate());
    await ctx.mined(createFor(ctx, ctx.client.address, USDC));
  });

  test('revokeFundingMandateBySig: anyone relays the client’s signature; forged, stale, replayed refused', async () => {
    const ctx = chain();
    await clientWithAllowance(ctx, 5n * USDC);
    await setMandate(ctx, await termsFor(ctx, ctx.client.address));
    const nonce = await ctx.client.escrow.read.mandateNonce([ctx.client.address]);
    const typed = revocationTypedData(chainId(ctx), ctx.deployed.escrow, ctx.client.address, nonce);
    expect(await ctx.client.escrow.read.fundingMandateRevocationDigest([ctx.client.address, nonce])).toBe(
      hashTypedData(typed),
    );
    const forged = await ctx.stranger.account.signTypedData(typed);
    await expectRevert(
      ctx.stranger.escrow.write.revokeFundingMandateBySig([ctx.client.address, nonce, forged]),
      'BadMandateSignature',
    );
    const ahead = await ctx.client.account.signTypedData(
      revocationTypedData(chainId(ctx), ctx.deployed.escrow, ctx.client.address, nonce + 1n),
    );
    await expectRevert(
      ctx.stranger.escrow.write.revokeFundingMandateBySig([ctx.client.address, nonce + 1n, ahead]),
      'MandateNonceMismatch',
    );
    const signature = await ctx.client.account.signTypedData(typed);
    await ctx.mined(ctx.stranger.escrow.write.revokeFundingMandateBySig([ctx.client.address, nonce, signature]));
    await expectRevert(createFor(ctx, ctx.client.address, USDC), 'NotMandateFunder');
    await expectRevert(
      ctx.stranger.escrow.write.revokeFundingMandateBySig([ctx.client.address, nonce, signature]),
      'MandateNonceMismatch',
    );
    // A revocation signed in advance is void once a newer mandate has used its nonce.
    const early = await ctx.client.account.signTypedData(
      revocationTypedData(chainId(ctx), ctx.deployed.escrow, ctx.client.address, nonce + 1n),
    );
    await setMandate(ctx, await termsFor(ctx, ctx.client.address));
    await expectRevert(
      ctx.stranger.escrow.write.revokeFundingMandateBySig([ctx.client.address, nonce + 1n, early]),
      'MandateNonceMismatch',
    );
    await ctx.mined(createFor(ctx, ctx.client.address, USDC));
  });
});

describe('setFundingMandateWithPermit', () => {
  test('sets the allowance and the mandate in one call; the funder then pulls within both', async () => {
    const ctx = chain();
    await ctx.mined(ctx.stranger.token.write.mint([ctx.client.address, 10n * USDC]));
    const m = await termsFor(ctx, ctx.client.address);
    const deadline = await expiryIn(ctx, DAY);
    const permit = await signPermit(ctx, ctx.client, ctx.client.address, 6n * USDC, deadline);
    await ctx.mined(
      ctx.operator.escrow.write.setFundingMandateWithPermit([
        mandateArg(m),
        await signMandate(ctx, ctx.client, m),
        6n * USDC,
        deadline,
        permit,
      ]),
    );
    expect(await ctx.client.token.read.allowance([ctx.client.address, ctx.deployed.escrow])).toBe(6n * USDC);
    await ctx.mined(createFor(ctx, ctx.client.address, 5n * USDC, ctx.operator, 'a'));
    expect(await ctx.client.token.read.allowance([ctx.client.address, ctx.deployed.escrow])).toBe(USDC);
    await expectRevert(createFor(ctx, ctx.client.address, 2n * USDC, ctx.operator, 'b'), 'ERC20InsufficientAllowance');
  });

  test('a permit front-run by whoever sent it first is tolerated; a bad one with no allowance is refused', async () => {
    const ctx = chain();
    const m = await termsFor(ctx, ctx.client.address);
    const deadline = await expiryIn(ctx, DAY);
    const permit = await signPermit(ctx, ctx.client, ctx.client.address, 6n * USDC, deadline);
    // The front-runner copies the permit from the mempool and sends it to the token first.
    await ctx.mined(
      ctx.stranger.token.write.permit([ctx.client.address, ctx.deployed.escrow, 6n * USDC, deadline, permit]),
    );
    await ctx.mined(
      ctx.operator.escrow.write.setFundingMandateWithPermit([
        mandateArg(m),
        await signMandate(ctx, ctx.client, m),
        6n * USDC,
        deadline,
        permit,
      ]),
    );
    expect((await ctx.client.escrow.read.fundingMandate([ctx.client.address]))[0]).toBe(ctx.operator.address);

    // Someone else's permit for the agent's tokens, with no allowance in place: refused, no mandate set.
    const other = await termsFor(ctx, ctx.agent.address);
    const forgedPermit = await signPermit(ctx, ctx.stranger, ctx.agent.address, USDC, deadline);
    await expectRevert(
      ctx.operator.escrow.write.setFundingMandateWithPermit([
        mandateArg(other),
        await signMandate(ctx, ctx.agent, other),
        USDC,
        deadline,
        forgedPermit,
      ]),
      'PermitFailed',
    );
    expect(await ctx.client.escrow.read.mandateNonce([ctx.agent.address])).toBe(0n);
  });
});

describe('upgrading a v4 deployment', () => {
  test('v5 beside v4 on the same token: v4 tasks still release and refund on v4, which has no settle', async () => {
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
    const old = await deployContracts({ ...options, escrowVersion: 'v4' });
    const v5 = await deployEscrow(options, old.rewardToken, 'v5');
    const on = (address: Hex, who: Actor) =>
      getContract({ address, abi, client: { public: ctx.publicClient, wallet: who.walletClient } });
    const token = getContract({
      address: old.rewardToken,
      abi: mockUsdcArtifact.abi,
      client: { public: ctx.publicClient, wallet: ctx.client.walletClient },
    });
    await ctx.mined(token.write.mint([ctx.client.address, 20n * USDC]));
    await ctx.mined(token.write.approve([old.escrow, 6n * USDC]));
    await ctx.mined(token.write.approve([v5, 4n * USDC]));
    const v4Client = getContract({
      address: old.escrow,
      abi: taskEscrowV4Artifact.abi,
      client: { public: ctx.publicClient, wallet: ctx.client.walletClient },
    });
    for (const i of [1, 2])
      await ctx.mined(v4Client.write.createTask([3n * USDC, missionRef(`v4-${i}`), await expiryIn(ctx, DAY)]));
    await ctx.mined(on(v5, ctx.client).write.createTask([4n * USDC, missionRef('v5-1'), await expiryIn(ctx, DAY)]));
    // v4 has no settle: the call reverts and changes nothing; its own release and refund work.
    const error = await on(old.escrow, ctx.operator)
      .write.settle([1n, ctx.agent.address, USDC, 0])
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeDefined();
    await ctx.mined(on(old.escrow, ctx.operator).write.release([1n, ctx.agent.address, 1_000]));
    await ctx.mined(on(old.escrow, ctx.operator).write.refund([2n]));
    // v5's task 1 is its own, settled in part without touching v4's.
    await ctx.mined(on(v5, ctx.operator).write.settle([1n, ctx.agent.address, USDC, 1_000]));
    const v4Read = on(old.escrow, ctx.client).read;
    expect(await v4Read.claimable([ctx.agent.address])).toBe(2_700_000n);
    expect(await v4Read.claimable([ctx.client.address])).toBe(3n * USDC);
    expect(await on(v5, ctx.client).read.claimable([ctx.agent.address])).toBe(900_000n);
    expect(await on(v5, ctx.client).read.claimable([ctx.client.address])).toBe(3n * USDC);
    expect(await token.read.balanceOf([old.escrow])).toBe(2_700_000n + 300_000n + 3n * USDC);
    expect(await token.read.balanceOf([v5])).toBe(4n * USDC);
  });
});
