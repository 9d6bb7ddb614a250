// Offering fixtures (docs/api.md#offerings): offerings published and ordered through the real route handlers, and
// a client holding the USDC to pay for them (funded through tests/support/funding.ts).
import type { Hex } from 'viem';
import { inject } from 'vitest';
import { POST as orderRoute } from '@/app/api/offerings/[id]/orders/route';
import { POST as publishRoute } from '@/app/api/offerings/route';
import { mockUsdcArtifact } from '@/lib/chain/artifacts';
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
