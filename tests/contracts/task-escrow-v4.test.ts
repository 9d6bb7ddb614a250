// TaskEscrowV4 (docs/escrow.md#funding-with-one-signature): a relayer opens a task with the client's
// one EIP-3009 signature and pays the gas; the task is the signer's; the nonce binds the task's terms
// so the relayer can change none of them; the token refuses replays, cancelled, expired and
// not-yet-valid authorizations and anyone but the escrow receiving them; a contract wallet signs
// through ERC-1271; and every v3 guarantee holds for such a task. MockUSDC's permit and EIP-3009
// behave as USDC v2.2's, and a v3 deployment keeps settling its tasks beside v4.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  type Abi,
  getAddress,
  getContract,
  domainSeparator,
  type Hex,
  keccak256,
  maxUint256,
  parseEventLogs,
  toHex,
  zeroAddress,
} from 'viem';
import { mockUsdcArtifact, taskEscrowV3Artifact, taskEscrowV4Artifact } from '@/lib/chain/artifacts';
import { deployContracts, deployEscrow } from '@/lib/chain/deploy';
import {
  type ChainContext,
  expectRevert,
  expectRevertReason,
  useContractsChain,
} from '../support/contracts/chain-fixture';
import { expiryIn, missionRef, USDC } from '../support/contracts/escrow-steps';
import {
  type FundingTerms,
  type FundingWindow,
  fundingArgs,
  fundingNonce,
  fundingTypedData,
  RECEIVE_WITH_AUTHORIZATION_TYPES,
  TASK_FUNDING_TYPEHASH,
  usdcDomain,
  vrs,
} from '../support/contracts/funding-authorization';

const chain = useContractsChain('v4');
const abi = taskEscrowV4Artifact.abi;
const DAY = 86_400;
type Actor = ChainContext['client'];

async function passTime(ctx: ChainContext, seconds: number) {
  await ctx.testClient.increaseTime({ seconds });
  await ctx.testClient.mine({ blocks: 1 });
}

/** The client holds the reward (no approval, no ETH spent by it) and the terms of a week-long task. */
async function termsFor(ctx: ChainContext, client: Hex, reward = 5n * USDC, label = 'm'): Promise<FundingTerms> {
  await ctx.mined(ctx.stranger.token.write.mint([client, reward]));
  return { client, reward, ref: missionRef(label), expiresAt: await expiryIn(ctx, 7 * DAY) };
}

async function openWindow(ctx: ChainContext): Promise<FundingWindow> {
  return { validAfter: 0n, validBefore: await expiryIn(ctx, 3600) };
}

function typedData(
  ctx: ChainContext,
  terms: FundingTerms,
  window: FundingWindow,
  nonce?: Hex,
  escrow = ctx.deployed.escrow,
) {
  return fundingTypedData(
    { chainId: ctx.publicClient.chain!.id, token: ctx.deployed.rewardToken, tokenName: 'Mock USDC', escrow },
    terms,
    window,
    nonce,
  );
}

/** The client signs; the relayer (the operator key, as the backend) submits; answers the new task id. */
async function fundByRelay(
  ctx: ChainContext,
  signer: Actor['account'],
  terms: FundingTerms,
  relayer: Actor = ctx.operator,
) {
  const window = await openWindow(ctx);
  const data = typedData(ctx, terms, window);
  const signature = await signer.signTypedData(data);
  const receipt = await ctx.mined(
    relayer.escrow.write.createTaskWithAuthorization(fundingArgs(terms, window, data.message.nonce, signature)),
  );
  const [created] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskCreated' });
  return { taskId: created!.args.taskId, receipt, created: created!, window, signature, nonce: data.message.nonce };
}

describe('createTaskWithAuthorization', () => {
  test(
    "a relayer submits the client's one signature: the task is the client's, the reward " +
      'pulled from it, the relayer pays only gas',
    async () => {
      const ctx = chain();
      const terms = await termsFor(ctx, ctx.client.address);
      const relayerTokens = await ctx.stranger.token.read.balanceOf([ctx.stranger.address]);
      const clientEth = await ctx.publicClient.getBalance({ address: ctx.client.address });
      const { taskId, created, nonce } = await fundByRelay(ctx, ctx.client.account, terms, ctx.stranger);
      expect(created.args).toEqual({ taskId, client: ctx.client.address, reward: terms.reward, ref: terms.ref });
      expect(await ctx.client.escrow.read.tasks([taskId])).toEqual([
        ctx.client.address,
        terms.reward,
        1,
        terms.expiresAt,
      ]);
      expect(await ctx.client.token.read.balanceOf([ctx.client.address])).toBe(0n);
      expect(await ctx.client.token.read.balanceOf([ctx.deployed.escrow])).toBe(terms.reward);
      expect(await ctx.client.token.read.balanceOf([ctx.stranger.address])).toBe(relayerTokens);
      expect(await ctx.publicClient.getBalance({ address: ctx.client.address })).toBe(clientEth);
      expect(await ctx.client.token.read.authorizationState([ctx.client.address, nonce])).toBe(true);
      // The relayer holds no right over the task: only the client tops up, extends and reclaims it.
      await expectRevert(ctx.stranger.escrow.write.extend([taskId, terms.expiresAt + 1n]), 'NotTaskClient');
      await ctx.mined(ctx.client.escrow.write.extend([taskId, terms.expiresAt + 1n]));
      // And it settles as any task: the operator releases, the agent claims.
      await ctx.mined(ctx.operator.escrow.write.release([taskId, ctx.agent.address, 1_000]));
      await ctx.mined(ctx.agent.escrow.write.claim());
      expect(await ctx.agent.token.read.balanceOf([ctx.agent.address])).toBe(4_500_000n);
    },
  );

  test(
    'the nonce is the documented keccak256 of the terms, the chain and the escrow; type ' +
      "hashes and domain are USDC v2.2's",
    async () => {
      const ctx = chain();
      const terms = await termsFor(ctx, ctx.client.address);
      const chainId = ctx.publicClient.chain!.id;
      expect(await ctx.client.escrow.read.TASK_FUNDING_TYPEHASH()).toBe(TASK_FUNDING_TYPEHASH);
      expect(await ctx.client.escrow.read.fundingNonce([terms.client, terms.reward, terms.ref, terms.expiresAt])).toBe(
        fundingNonce(chainId, ctx.deployed.escrow, terms),
      );
      // Each term moves the nonce.
      const moved = [
        { ...terms, client: ctx.stranger.address },
        { ...terms, reward: terms.reward + 1n },
        { ...terms, ref: missionRef('other') },
        { ...terms, expiresAt: terms.expiresAt + 1n },
      ].map((t) => fundingNonce(chainId, ctx.deployed.escrow, t));
      expect(new Set([fundingNonce(chainId, ctx.deployed.escrow, terms), ...moved]).size).toBe(5);
      expect(fundingNonce(chainId, ctx.stranger.address, terms)).not.toBe(
        fundingNonce(chainId, ctx.deployed.escrow, terms),
      );
      // EIP-3009's and EIP-2612's type hashes as FiatToken v2.2 declares them, and its domain.
      expect(await ctx.client.token.read.RECEIVE_WITH_AUTHORIZATION_TYPEHASH()).toBe(
        '0xd099cc98ef71107a616c4f0f941f04c322d8e254fe26b3c6668db87aae413de8',
      );
      expect(await ctx.client.token.read.TRANSFER_WITH_AUTHORIZATION_TYPEHASH()).toBe(
        '0x7c7c6cdb67a18743f49ec6fa9b35f50d52ed05cbed4cc592e13b44501c1a2267',
      );
      expect(await ctx.client.token.read.CANCEL_AUTHORIZATION_TYPEHASH()).toBe(
        '0x158b0a9edf7a828aad02f63cd515c68ef2f50ba807396f6d12842833a1597429',
      );
      expect(await ctx.client.token.read.PERMIT_TYPEHASH()).toBe(
        '0x6e71edae12b1b97f4d1f60370fef10105fa2faae0126114a169c64845d6126c9',
      );
      expect(await ctx.client.token.read.version()).toBe('2');
      expect(await ctx.client.token.read.DOMAIN_SEPARATOR()).toBe(
        domainSeparator({ domain: usdcDomain(await ctx.client.token.read.name(), chainId, ctx.deployed.rewardToken) }),
      );
    },
  );

  test(
    'the relayer can change none of the terms: a nonce not derived from them is refused, ' +
      'and a re-derived one fails the signature',
    async () => {
      const ctx = chain();
      const terms = await termsFor(ctx, ctx.client.address);
      const window = await openWindow(ctx);
      const data = typedData(ctx, terms, window);
      const signature = await ctx.client.account.signTypedData(data);
      const send = (t: FundingTerms, nonce: Hex, w = window) =>
        ctx.operator.escrow.write.createTaskWithAuthorization(fundingArgs(t, w, nonce, signature));
      const altered: FundingTerms[] = [
        { ...terms, reward: terms.reward - 1n },
        { ...terms, ref: missionRef('another mission') },
        { ...terms, expiresAt: terms.expiresAt + 1n },
        { ...terms, client: ctx.stranger.address },
      ];
      for (const t of altered) {
        await expectRevert(send(t, data.message.nonce), 'FundingNonceMismatch');
        await expectRevertReason(
          send(t, fundingNonce(ctx.publicClient.chain!.id, ctx.deployed.escrow, t)),
          'FiatTokenV2: invalid signature',
        );
      }
      // A signature over some other nonce (a plain random EIP-3009 authorization to the escrow) funds nothing.
      const random = keccak256(toHex('random nonce'));
      const randomSignature = await ctx.client.account.signTypedData(typedData(ctx, terms, window, random));
      await expectRevert(
        ctx.operator.escrow.write.createTaskWithAuthorization(fundingArgs(terms, window, random, randomSignature)),
        'FundingNonceMismatch',
      );
      // Nor can the window be moved: it is signed.
      await expectRevertReason(
        send(terms, data.message.nonce, { ...window, validBefore: window.validBefore + 1n }),
        'FiatTokenV2: invalid signature',
      );
      expect(await ctx.client.escrow.read.taskCount()).toBe(0n);
      await ctx.mined(send(terms, data.message.nonce));
      expect(await ctx.client.escrow.read.taskCount()).toBe(1n);
    },
  );

  test('a signature funds once: the replay is refused by the token and opens no second task', async () => {
    const ctx = chain();
    const terms = await termsFor(ctx, ctx.client.address, 10n * USDC);
    const { window, nonce, signature } = await fundByRelay(ctx, ctx.client.account, { ...terms, reward: 5n * USDC });
    for (const relayer of [ctx.operator, ctx.stranger, ctx.client]) {
      await expectRevertReason(
        relayer.escrow.write.createTaskWithAuthorization(
          fundingArgs({ ...terms, reward: 5n * USDC }, window, nonce, signature),
        ),
        'FiatTokenV2: authorization is used or canceled',
      );
    }
    expect(await ctx.client.escrow.read.taskCount()).toBe(1n);
    expect(await ctx.client.token.read.balanceOf([ctx.client.address])).toBe(5n * USDC);
  });

  test('an authorization is refused before validAfter and from validBefore on', async () => {
    const ctx = chain();
    const terms = await termsFor(ctx, ctx.client.address);
    const signAndSend = async (window: FundingWindow) => {
      const data = typedData(ctx, terms, window);
      const signature = await ctx.client.account.signTypedData(data);
      return ctx.operator.escrow.write.createTaskWithAuthorization(
        fundingArgs(terms, window, data.message.nonce, signature),
      );
    };
    const now = await expiryIn(ctx, 0);
    await expectRevertReason(
      signAndSend({ validAfter: now + 3600n, validBefore: now + 7200n }),
      'FiatTokenV2: authorization is not yet valid',
    );
    await expectRevertReason(
      signAndSend({ validAfter: 0n, validBefore: now }),
      'FiatTokenV2: authorization is expired',
    );
    // Signed for later, it works once its window opens.
    const later = { validAfter: now + 60n, validBefore: now + 7200n };
    const data = typedData(ctx, terms, later);
    const signature = await ctx.client.account.signTypedData(data);
    await expectRevertReason(
      ctx.operator.escrow.write.createTaskWithAuthorization(fundingArgs(terms, later, data.message.nonce, signature)),
      'FiatTokenV2: authorization is not yet valid',
    );
    await passTime(ctx, 120);
    await ctx.mined(
      ctx.operator.escrow.write.createTaskWithAuthorization(fundingArgs(terms, later, data.message.nonce, signature)),
    );
  });

  test(
    'the client can cancel an unused authorization (either signature form); the relayer ' + 'then cannot use it',
    async () => {
      const ctx = chain();
      for (const [label, form] of [
        ['bytes', 'bytes'],
        ['vrs', 'vrs'],
      ] as const) {
        const terms = await termsFor(ctx, ctx.client.address, USDC, label);
        const window = await openWindow(ctx);
        const data = typedData(ctx, terms, window);
        const signature = await ctx.client.account.signTypedData(data);
        const cancel = await ctx.client.account.signTypedData({
          domain: data.domain,
          types: {
            CancelAuthorization: [
              { name: 'authorizer', type: 'address' },
              { name: 'nonce', type: 'bytes32' },
            ],
          },
          primaryType: 'CancelAuthorization',
          message: { authorizer: ctx.client.address, nonce: data.message.nonce },
        });
        // Anyone may submit the cancellation; a stranger's signature cancels nothing.
        const strangers = await ctx.stranger.account.signTypedData({
          domain: data.domain,
          types: {
            CancelAuthorization: [
              { name: 'authorizer', type: 'address' },
              { name: 'nonce', type: 'bytes32' },
            ],
          },
          primaryType: 'CancelAuthorization',
          message: { authorizer: ctx.client.address, nonce: data.message.nonce },
        });
        await expectRevertReason(
          ctx.stranger.token.write.cancelAuthorization([ctx.client.address, data.message.nonce, strangers]),
          'FiatTokenV2: invalid signature',
        );
        const receipt = await ctx.mined(
          form === 'bytes'
            ? ctx.stranger.token.write.cancelAuthorization([ctx.client.address, data.message.nonce, cancel])
            : ctx.stranger.token.write.cancelAuthorization([ctx.client.address, data.message.nonce, ...vrs(cancel)]),
        );
        expect(receipt.logs).toHaveLength(1); // AuthorizationCanceled
        expect(await ctx.client.token.read.authorizationState([ctx.client.address, data.message.nonce])).toBe(true);
        await expectRevertReason(
          ctx.operator.escrow.write.createTaskWithAuthorization(
            fundingArgs(terms, window, data.message.nonce, signature),
          ),
          'FiatTokenV2: authorization is used or canceled',
        );
        await expectRevertReason(
          ctx.stranger.token.write.cancelAuthorization([ctx.client.address, data.message.nonce, cancel]),
          'FiatTokenV2: authorization is used or canceled',
        );
      }
      expect(await ctx.client.escrow.read.taskCount()).toBe(0n);
    },
  );

  test(
    "only the escrow can use the authorization: another caller's receiveWithAuthorization " +
      'and a transferWithAuthorization are refused',
    async () => {
      const ctx = chain();
      const terms = await termsFor(ctx, ctx.client.address);
      const window = await openWindow(ctx);
      const data = typedData(ctx, terms, window);
      const signature = await ctx.client.account.signTypedData(data);
      const m = data.message;
      // Seen in the mempool, the authorization cannot be taken to the token directly...
      await expectRevertReason(
        ctx.stranger.token.write.receiveWithAuthorization([
          m.from,
          m.to,
          m.value,
          m.validAfter,
          m.validBefore,
          m.nonce,
          signature,
        ]),
        'FiatTokenV2: caller must be the payee',
      );
      await expectRevertReason(
        ctx.stranger.token.write.receiveWithAuthorization([
          m.from,
          m.to,
          m.value,
          m.validAfter,
          m.validBefore,
          m.nonce,
          ...vrs(signature),
        ]),
        'FiatTokenV2: caller must be the payee',
      );
      // ...nor redirected to the caller (the payee is signed), nor used as a plain transfer (another type hash).
      await expectRevertReason(
        ctx.stranger.token.write.receiveWithAuthorization([
          m.from,
          ctx.stranger.address,
          m.value,
          m.validAfter,
          m.validBefore,
          m.nonce,
          signature,
        ]),
        'FiatTokenV2: invalid signature',
      );
      await expectRevertReason(
        ctx.stranger.token.write.transferWithAuthorization([
          m.from,
          m.to,
          m.value,
          m.validAfter,
          m.validBefore,
          m.nonce,
          signature,
        ]),
        'FiatTokenV2: invalid signature',
      );
      expect(await ctx.client.token.read.authorizationState([ctx.client.address, m.nonce])).toBe(false);
      await ctx.mined(
        ctx.operator.escrow.write.createTaskWithAuthorization(fundingArgs(terms, window, m.nonce, signature)),
      );
    },
  );

  test(
    "a contract wallet (ERC-1271) funds with its owner's signature; the task's client is " +
      "the wallet; a non-owner's signature is refused",
    async () => {
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
      const terms = await termsFor(ctx, wallet);
      const window = await openWindow(ctx);
      const data = typedData(ctx, terms, window);
      await expectRevertReason(
        ctx.operator.escrow.write.createTaskWithAuthorization(
          fundingArgs(terms, window, data.message.nonce, await ctx.stranger.account.signTypedData(data)),
        ),
        'FiatTokenV2: invalid signature',
      );
      const receipt = await ctx.mined(
        ctx.operator.escrow.write.createTaskWithAuthorization(
          fundingArgs(terms, window, data.message.nonce, await ctx.client.account.signTypedData(data)),
        ),
      );
      const [created] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'TaskCreated' });
      expect(created?.args.client).toBe(wallet);
      expect((await ctx.client.escrow.read.tasks([created!.args.taskId]))[0]).toBe(wallet);
      expect(await ctx.client.token.read.balanceOf([wallet])).toBe(0n);
      // The wallet's owner is not the client: the task answers to the wallet alone.
      await expectRevert(ctx.client.escrow.write.extend([created!.args.taskId, terms.expiresAt + 1n]), 'NotTaskClient');
    },
  );

  test(
    'checks the terms before touching the token: no zero client, no zero reward, an expiry ' + 'in the future',
    async () => {
      const ctx = chain();
      const terms = await termsFor(ctx, ctx.client.address);
      const window = await openWindow(ctx);
      const signed = async (t: FundingTerms) => {
        const data = typedData(ctx, t, window);
        return fundingArgs(t, window, data.message.nonce, await ctx.client.account.signTypedData(data));
      };
      await expectRevert(
        ctx.operator.escrow.write.createTaskWithAuthorization(await signed({ ...terms, client: zeroAddress })),
        'ZeroAddress',
      );
      await expectRevert(
        ctx.operator.escrow.write.createTaskWithAuthorization(await signed({ ...terms, reward: 0n })),
        'ZeroAmount',
      );
      await expectRevert(
        ctx.operator.escrow.write.createTaskWithAuthorization(
          await signed({ ...terms, expiresAt: await expiryIn(ctx, 0) }),
        ),
        'ExpiryNotInFuture',
      );
      // More than the client holds: the token's transfer fails and nothing is opened.
      await expect(
        ctx.operator.escrow.write.createTaskWithAuthorization(await signed({ ...terms, reward: terms.reward + 1n })),
      ).rejects.toThrow();
      expect(await ctx.client.escrow.read.taskCount()).toBe(0n);
    },
  );
});

describe('a task funded by authorization keeps every v3 guarantee', () => {
  test(
    'only its client reclaims, once expired, even though a relayer sent it; the operator ' +
      'can neither reclaim nor block it',
    async () => {
      const ctx = chain();
      const terms = { ...(await termsFor(ctx, ctx.client.address)), expiresAt: await expiryIn(ctx, DAY) };
      const { taskId } = await fundByRelay(ctx, ctx.client.account, terms);
      await expectRevert(ctx.client.escrow.write.reclaim([taskId]), 'NotExpired');
      await passTime(ctx, DAY);
      for (const who of [ctx.operator, ctx.stranger, ctx.owner])
        await expectRevert(who.escrow.write.reclaim([taskId]), 'NotTaskClient');
      await ctx.mined(ctx.client.escrow.write.reclaim([taskId]));
      await expectRevert(ctx.operator.escrow.write.release([taskId, ctx.agent.address, 0]), 'TaskNotOpen');
      await ctx.mined(ctx.client.escrow.write.claim());
      expect(await ctx.client.token.read.balanceOf([ctx.client.address])).toBe(terms.reward);
    },
  );

  test(
    "release and releaseSplit are the operator's alone and capped at maxFeeBps; refund goes " +
      'to the signer, not the relayer',
    async () => {
      const ctx = chain();
      const first = await fundByRelay(
        ctx,
        ctx.client.account,
        await termsFor(ctx, ctx.client.address, 10n * USDC, 'a'),
        ctx.stranger,
      );
      for (const who of [ctx.client, ctx.stranger, ctx.owner]) {
        await expectRevert(who.escrow.write.release([first.taskId, who.address, 0]), 'NotOperator');
        await expectRevert(
          who.escrow.write.releaseSplit([first.taskId, [who.address], [10n * USDC], 0]),
          'NotOperator',
        );
        await expectRevert(who.escrow.write.refund([first.taskId]), 'NotOperator');
      }
      await expectRevert(ctx.operator.escrow.write.release([first.taskId, ctx.agent.address, 1_001]), 'FeeTooHigh');
      await expectRevert(
        ctx.operator.escrow.write.releaseSplit([first.taskId, [ctx.agent.address], [9n * USDC], 1_001]),
        'FeeTooHigh',
      );
      await ctx.mined(
        ctx.operator.escrow.write.releaseSplit([
          first.taskId,
          [ctx.agent.address, ctx.client.address],
          [6n * USDC, 3n * USDC],
          1_000,
        ]),
      );
      expect(await ctx.client.escrow.read.claimable([ctx.feeRecipient.address])).toBe(USDC);
      const second = await fundByRelay(
        ctx,
        ctx.client.account,
        await termsFor(ctx, ctx.client.address, 2n * USDC, 'b'),
        ctx.stranger,
      );
      await ctx.mined(ctx.operator.escrow.write.refund([second.taskId]));
      expect(await ctx.client.escrow.read.claimable([ctx.client.address])).toBe(5n * USDC);
      expect(await ctx.client.escrow.read.claimable([ctx.stranger.address])).toBe(0n);
    },
  );

  test('its client tops it up with a permit instead of an approve transaction', async () => {
    const ctx = chain();
    const { taskId } = await fundByRelay(ctx, ctx.client.account, await termsFor(ctx, ctx.client.address));
    await ctx.mined(ctx.stranger.token.write.mint([ctx.client.address, 2n * USDC]));
    const deadline = await expiryIn(ctx, 600);
    const permit = await signPermit(ctx, ctx.client, ctx.deployed.escrow, 2n * USDC, deadline);
    await ctx.mined(
      ctx.stranger.token.write.permit([ctx.client.address, ctx.deployed.escrow, 2n * USDC, deadline, permit]),
    );
    await ctx.mined(ctx.client.escrow.write.topUp([taskId, 2n * USDC]));
    expect((await ctx.client.escrow.read.tasks([taskId]))[1]).toBe(7n * USDC);
  });
});

async function signPermit(
  ctx: ChainContext,
  owner: Actor,
  spender: Hex,
  value: bigint,
  deadline: bigint,
  owningAddress: Hex = owner.address,
) {
  return owner.account.signTypedData({
    domain: usdcDomain('Mock USDC', ctx.publicClient.chain!.id, ctx.deployed.rewardToken),
    types: {
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit',
    message: {
      owner: owningAddress,
      spender,
      value,
      nonce: await ctx.client.token.read.nonces([owningAddress]),
      deadline,
    },
  });
}

describe('MockUSDC signs like USDC v2.2', () => {
  test(
    'permit in both forms: sets the allowance, counts the nonce, refuses a replay, a wrong ' +
      'signer and an expired deadline',
    async () => {
      const ctx = chain();
      const deadline = await expiryIn(ctx, 600);
      const first = await signPermit(ctx, ctx.client, ctx.agent.address, 3n * USDC, deadline);
      await ctx.mined(
        ctx.stranger.token.write.permit([ctx.client.address, ctx.agent.address, 3n * USDC, deadline, ...vrs(first)]),
      );
      expect(await ctx.client.token.read.allowance([ctx.client.address, ctx.agent.address])).toBe(3n * USDC);
      expect(await ctx.client.token.read.nonces([ctx.client.address])).toBe(1n);
      await expectRevertReason(
        ctx.stranger.token.write.permit([ctx.client.address, ctx.agent.address, 3n * USDC, deadline, first]),
        'EIP2612: invalid signature',
      );
      const second = await signPermit(ctx, ctx.client, ctx.agent.address, USDC, maxUint256);
      await ctx.mined(
        ctx.stranger.token.write.permit([ctx.client.address, ctx.agent.address, USDC, maxUint256, second]),
      );
      expect(await ctx.client.token.read.allowance([ctx.client.address, ctx.agent.address])).toBe(USDC);
      const forged = await signPermit(ctx, ctx.stranger, ctx.agent.address, USDC, deadline, ctx.client.address);
      await expectRevertReason(
        ctx.stranger.token.write.permit([ctx.client.address, ctx.agent.address, USDC, deadline, forged]),
        'EIP2612: invalid signature',
      );
      const stale = await expiryIn(ctx, 0);
      const late = await signPermit(ctx, ctx.client, ctx.agent.address, USDC, stale);
      await passTime(ctx, 10);
      await expectRevertReason(
        ctx.stranger.token.write.permit([ctx.client.address, ctx.agent.address, USDC, stale, late]),
        'FiatTokenV2: permit is expired',
      );
    },
  );

  test(
    'a contract wallet permits through ERC-1271 (bytes form), and transferWithAuthorization ' +
      'moves tokens for anyone who submits it',
    async () => {
      const ctx = chain();
      const ownedWallet = JSON.parse(
        readFileSync(new URL('../../contracts/out/test/OwnedWallet.json', import.meta.url), 'utf8'),
      ) as { abi: Abi; bytecode: Hex };
      const wallet = (
        await ctx.mined(
          ctx.client.walletClient.deployContract({
            abi: ownedWallet.abi,
            bytecode: ownedWallet.bytecode,
            args: [ctx.client.address],
          }),
        )
      ).contractAddress!;
      const deadline = await expiryIn(ctx, 600);
      const permit = await signPermit(ctx, ctx.client, ctx.agent.address, USDC, deadline, wallet);
      await ctx.mined(ctx.stranger.token.write.permit([wallet, ctx.agent.address, USDC, deadline, permit]));
      expect(await ctx.client.token.read.allowance([wallet, ctx.agent.address])).toBe(USDC);

      await ctx.mined(ctx.stranger.token.write.mint([ctx.client.address, 2n * USDC]));
      const window = await openWindow(ctx);
      const domain = usdcDomain('Mock USDC', ctx.publicClient.chain!.id, ctx.deployed.rewardToken);
      const transfer = (nonce: Hex) =>
        ctx.client.account.signTypedData({
          domain,
          types: { TransferWithAuthorization: RECEIVE_WITH_AUTHORIZATION_TYPES.ReceiveWithAuthorization },
          primaryType: 'TransferWithAuthorization',
          message: {
            from: ctx.client.address,
            to: ctx.agent.address,
            value: USDC,
            validAfter: window.validAfter,
            validBefore: window.validBefore,
            nonce,
          },
        });
      const [n1, n2] = [keccak256(toHex('t1')), keccak256(toHex('t2'))];
      const args = (nonce: Hex) =>
        [ctx.client.address, ctx.agent.address, USDC, window.validAfter, window.validBefore, nonce] as const;
      await ctx.mined(ctx.stranger.token.write.transferWithAuthorization([...args(n1), await transfer(n1)]));
      await ctx.mined(ctx.stranger.token.write.transferWithAuthorization([...args(n2), ...vrs(await transfer(n2))]));
      expect(await ctx.client.token.read.balanceOf([ctx.agent.address])).toBe(2n * USDC);
      await expectRevertReason(
        ctx.stranger.token.write.transferWithAuthorization([...args(n1), await transfer(n1)]),
        'FiatTokenV2: authorization is used or canceled',
      );
    },
  );
});

describe('upgrading a v3 deployment', () => {
  test(
    'v4 deployed beside v3 on the same token: v3 tasks still release, split and reclaim on ' +
      'v3; v3 cannot take an authorization',
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
      const old = await deployContracts({ ...options, escrowVersion: 'v3' });
      const v4 = await deployEscrow(options, old.rewardToken, 'v4');
      const on = (address: Hex, who: Actor) =>
        getContract({ address, abi, client: { public: ctx.publicClient, wallet: who.walletClient } });
      const token = getContract({
        address: old.rewardToken,
        abi: mockUsdcArtifact.abi,
        client: { public: ctx.publicClient, wallet: ctx.client.walletClient },
      });
      await ctx.mined(token.write.mint([ctx.client.address, 20n * USDC]));
      await ctx.mined(token.write.approve([old.escrow, 6n * USDC]));
      const v3Client = on(old.escrow, ctx.client);
      for (const [i, ttl] of [
        [1, DAY],
        [2, DAY],
        [3, 60],
      ] as const)
        await ctx.mined(v3Client.write.createTask([2n * USDC, missionRef(`v3-${i}`), await expiryIn(ctx, ttl)]));
      // v4 counts its own ids from 1: a task is named by its escrow and its id.
      const terms = {
        client: ctx.client.address,
        reward: 4n * USDC,
        ref: missionRef('v4-1'),
        expiresAt: await expiryIn(ctx, DAY),
      };
      const window = await openWindow(ctx);
      const data = fundingTypedData(
        { chainId: ctx.publicClient.chain!.id, token: old.rewardToken, tokenName: 'Mock USDC', escrow: v4 },
        terms,
        window,
      );
      const signature = await ctx.client.account.signTypedData(data);
      await ctx.mined(
        on(v4, ctx.operator).write.createTaskWithAuthorization(
          fundingArgs(terms, window, data.message.nonce, signature),
        ),
      );
      expect(await on(v4, ctx.client).read.tasks([1n])).toEqual([ctx.client.address, 4n * USDC, 1, terms.expiresAt]);
      // v3 has no createTaskWithAuthorization at all; the same signature names v4 as payee anyway.
      const v3WithV4Abi = getContract({
        address: old.escrow,
        abi: taskEscrowV4Artifact.abi,
        client: { public: ctx.publicClient, wallet: ctx.operator.walletClient },
      });
      await expect(
        v3WithV4Abi.write.createTaskWithAuthorization(fundingArgs(terms, window, data.message.nonce, signature)),
      ).rejects.toThrow();
      const v3Operator = getContract({
        address: old.escrow,
        abi: taskEscrowV3Artifact.abi,
        client: { public: ctx.publicClient, wallet: ctx.operator.walletClient },
      });
      await ctx.mined(v3Operator.write.release([1n, ctx.agent.address, 1_000]));
      await ctx.mined(
        v3Operator.write.releaseSplit([2n, [ctx.agent.address, ctx.stranger.address], [1_000_000n, 800_000n], 1_000]),
      );
      await passTime(ctx, 120);
      await ctx.mined(v3Client.write.reclaim([3n]));
      await ctx.mined(on(v4, ctx.operator).write.release([1n, ctx.agent.address, 0]));
      await ctx.mined(on(old.escrow, ctx.agent).write.claim());
      await ctx.mined(on(v4, ctx.agent).write.claim());
      await ctx.mined(v3Client.write.claim());
      expect(await token.read.balanceOf([ctx.agent.address])).toBe(1_800_000n + 1_000_000n + 4n * USDC);
      expect(await token.read.balanceOf([ctx.client.address])).toBe(20n * USDC - 6n * USDC - 4n * USDC + 2n * USDC);
      expect(await token.read.balanceOf([v4])).toBe(0n);
      // fees and the stranger's share, owed
      expect(await token.read.balanceOf([old.escrow])).toBe(200_000n + 200_000n + 800_000n);
    },
  );
});
