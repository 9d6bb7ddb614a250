// Offering fixtures (docs/api.md#offerings): offerings published and ordered through the real route handlers,
// and the post-and-pay funding of an order with the client's one EIP-3009 signature on anvil, or by the wallet's
// own approve + createTask (the fallback: POST …/funding { onChainTaskId }).
import { type Hex, type PrivateKeyAccount, parseEventLogs } from 'viem';
import { inject } from 'vitest';
import { GET as fundingGet, POST as fundingPost } from '@/app/api/missions/[id]/funding/route';
import { POST as orderRoute } from '@/app/api/offerings/[id]/orders/route';
import { POST as publishRoute } from '@/app/api/offerings/route';
import { mockUsdcArtifact, taskEscrowV5Artifact } from '@/lib/chain/artifacts';
import { fund, publicClient, walletOf } from './chain';
import { call } from './http';
import type { Party } from './missions';
import { newWallet, signIn } from './wallets';

export const PRICE = 5_000_000n;

export function offeringInput(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Translate a page into French',
    description: 'A native speaker translates up to 2,000 words of web copy within the SLA.',
    category: 'translation',
    tags: ['french', 'copy'],
    price: PRICE.toString(),
    slaHours: 24,
    criteria: ['Every sentence translated', 'No machine-translation artefacts'],
    requirementsSchema: {
      type: 'object',
      properties: { url: { type: 'string', format: 'uri' }, words: { type: 'integer', maximum: 2000 } },
      required: ['url'],
      additionalProperties: false,
    },
    ...overrides,
  };
}

export async function publish(agent: Party, overrides: Record<string, unknown> = {}) {
  const response = await call(publishRoute, { token: agent.token, body: offeringInput(overrides) });
  if (response.status !== 201) throw new Error(`publish: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.offering as { id: string; [key: string]: any };
}

export const order = (
  token: string,
  offeringId: string,
  body: unknown = { requirements: { url: 'https://x.test/a' } },
) => call(orderRoute, { token, params: { id: offeringId }, body });

const contracts = () => inject('contracts') as { escrow: Hex; rewardToken: Hex };

/** Mints test USDC to `to` from a throwaway funded wallet: the client itself holds no ETH. */
export async function mintUsdc(to: Hex, amount: bigint) {
  const minter = newWallet();
  await fund(minter.address);
  const hash = await walletOf(minter).writeContract({
    address: contracts().rewardToken,
    abi: mockUsdcArtifact.abi,
    functionName: 'mint',
    args: [to, amount],
  });
  await publicClient().waitForTransactionReceipt({ hash });
}

/** A client holding `amount` test USDC and no ETH. */
export async function payingClient(amount = PRICE) {
  const wallet = newWallet();
  await mintUsdc(wallet.address, amount);
  const { token, user } = await signIn(wallet);
  return { wallet, token, id: user.id as string, address: user.walletAddress as string };
}

/** The client's one signature over the funding's typed data, posted: relayed and mined before the answer. */
export async function signAndFund(wallet: PrivateKeyAccount, token: string, missionId: string) {
  const read = await call(fundingGet, { token, params: { id: missionId } });
  if (read.status !== 200) throw new Error(`funding: ${read.status} ${JSON.stringify(read.body)}`);
  const t = read.body.typedData;
  const m = t.message as Record<string, string>;
  const signature = await wallet.signTypedData({
    domain: t.domain,
    types: t.types,
    primaryType: 'ReceiveWithAuthorization',
    message: { ...m, value: BigInt(m.value!), validAfter: BigInt(m.validAfter!), validBefore: BigInt(m.validBefore!) },
  } as never);
  return call(fundingPost, { token, params: { id: missionId }, body: { signature } });
}

/**
 * The wallet fallback (docs/api.md#post-and-pay, item 4): the client's wallet (given ETH for gas) approves the
 * escrow and calls createTask itself with the terms the funding GET names, then posts the task's id.
 */
export async function fundWithOwnTask(wallet: PrivateKeyAccount, token: string, missionId: string) {
  const read = await call(fundingGet, { token, params: { id: missionId } });
  if (read.status !== 200) throw new Error(`funding: ${read.status} ${JSON.stringify(read.body)}`);
  const terms = read.body as { escrow: Hex; token: Hex; ref: Hex; expiresAt: string; amount: string };
  await fund(wallet.address);
  const w = walletOf(wallet);
  const amount = BigInt(terms.amount);
  await publicClient().waitForTransactionReceipt({
    hash: await w.writeContract({
      address: terms.token,
      abi: mockUsdcArtifact.abi,
      functionName: 'approve',
      args: [terms.escrow, amount],
    }),
  });
  const receipt = await publicClient().waitForTransactionReceipt({
    hash: await w.writeContract({
      address: terms.escrow,
      abi: taskEscrowV5Artifact.abi,
      functionName: 'createTask',
      args: [amount, terms.ref, BigInt(terms.expiresAt)],
    }),
  });
  const [created] = parseEventLogs({ abi: taskEscrowV5Artifact.abi, eventName: 'TaskCreated', logs: receipt.logs });
  const taskId = Number(created!.args.taskId);
  return {
    taskId,
    answer: await call(fundingPost, { token, params: { id: missionId }, body: { onChainTaskId: taskId } }),
  };
}
