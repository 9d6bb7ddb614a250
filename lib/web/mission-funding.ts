// Funding an AWAITING_FUNDING mission from the dashboard (docs/api.md#post-and-pay): the terms and the
// typed data come from GET /api/missions/{id}/funding; one signature of them, POSTed back, has the
// backend relay the task (no ETH); the fallback is the wallet's own approve + createTask with the
// same ref and expiresAt, then the task id POSTed back.
import type { Address, Hex, TypedDataDefinition } from 'viem';
import { signTypedData } from 'viem/actions';
import { apiFetch } from './api-client';
import { fundNewTask, type FundingStep, type WalletClient } from './escrow';

export type FundingStatus = 'awaiting_signature' | 'relaying' | 'funded' | 'failed';

/** GET /api/missions/{id}/funding, as the dashboard reads it. */
export interface MissionFunding {
  typedData: {
    domain: Record<string, unknown>;
    types: Record<string, { name: string; type: string }[]>;
    primaryType: string;
    message: Record<string, unknown>;
  };
  escrow: Address;
  token: Address;
  amount: string;
  /** The task's on-chain expiry (unix seconds, decimal; an ISO time is read too). */
  expiresAt: string | number;
  /** When the unfunded mission lapses (ISO): the signature is valid until then. */
  fundBy?: string;
  ref: Hex;
  status: FundingStatus;
  reason?: string;
  txHash?: Hex;
  relayAvailable: boolean;
}

export const fundingPath = (id: string) => `/api/missions/${encodeURIComponent(id)}/funding`;

export function readFunding(id: string): Promise<MissionFunding> {
  return apiFetch<MissionFunding>(fundingPath(id), { cache: 'no-store' });
}

/** The typed data as viem signs it: integer fields as bigints (JSON carries them as strings). */
export function typedDataOf(funding: Pick<MissionFunding, 'typedData'>): TypedDataDefinition {
  const { domain, types, primaryType, message } = funding.typedData;
  const fields = types[primaryType] ?? [];
  const integer = (type: string) => /^u?int\d*$/.test(type);
  const converted = Object.fromEntries(
    Object.entries(message).map(([key, value]) => {
      const field = fields.find((f) => f.name === key);
      return [
        key,
        field && integer(field.type) && (typeof value === 'string' || typeof value === 'number')
          ? BigInt(value)
          : value,
      ];
    }),
  );
  const { EIP712Domain: _domainType, ...rest } = types;
  return { domain, types: rest, primaryType, message: converted } as unknown as TypedDataDefinition;
}

/** The one signature: the wallet signs the typed data, and the backend relays it (202). */
export async function fundBySignature(
  client: WalletClient,
  id: string,
  funding: MissionFunding,
  onSigned?: () => void,
): Promise<void> {
  const signature = await signTypedData(client, { account: client.account, ...typedDataOf(funding) } as never);
  onSigned?.();
  await apiFetch(fundingPath(id), { method: 'POST', json: { signature } });
}

/** Seconds since the epoch of the task's expiry, whichever form the API wrote it in. */
export function expirySeconds(expiresAt: string | number): bigint {
  if (typeof expiresAt === 'number' || /^\d+$/.test(expiresAt)) return BigInt(expiresAt);
  return BigInt(Math.floor(new Date(expiresAt).getTime() / 1000));
}

/** The fallback: approve + createTask from the wallet (it pays the gas), then the task id to the API. */
export async function fundFromWallet(
  client: WalletClient,
  id: string,
  funding: MissionFunding,
  onStep: (step: FundingStep) => void,
): Promise<void> {
  const { taskId } = await fundNewTask(
    client,
    { escrow: funding.escrow, token: funding.token },
    { reward: BigInt(funding.amount), ref: funding.ref, expiresAt: expirySeconds(funding.expiresAt) },
    onStep,
  );
  await apiFetch(fundingPath(id), { method: 'POST', json: { onChainTaskId: taskId } });
}
