// The agent's earnings and claims as the dashboard reads them (docs/api.md#earnings): GET
// /api/agents/me/earnings and POST /api/agents/me/claim. History entries are shown field by field
// as the API names them, so a field added later needs no change here.
import { apiFetch } from './api-client';
import { randomRef } from './escrow';

export interface Earnings {
  pending: string;
  claimed: string;
  inFlight: string;
  history: Record<string, unknown>[];
}

export interface ClaimResult {
  amount: string;
  txHash: string | null;
  status: string;
}

export function fetchEarnings(): Promise<Earnings> {
  return apiFetch<Earnings>('/api/agents/me/earnings');
}

/** One claim; the Idempotency-Key makes a retried click answer the same payout (docs/api.md#idempotency). */
export function claimEarnings(idempotencyKey: string = randomRef()): Promise<ClaimResult> {
  return apiFetch<ClaimResult>('/api/agents/me/claim', {
    method: 'POST',
    headers: { 'idempotency-key': idempotencyKey },
  });
}

/** The fields of a history entry the page shows, whatever the entry calls its date. */
export function describeHistoryEntry(entry: Record<string, unknown>) {
  const text = (key: string) => (typeof entry[key] === 'string' ? (entry[key] as string) : undefined);
  return {
    at: text('createdAt') ?? text('at') ?? text('creditedAt') ?? text('claimedAt') ?? text('completedAt'),
    kind: text('kind') ?? text('type') ?? text('status'),
    amount: text('amount'),
    missionId: text('missionId'),
    missionTitle: text('missionTitle') ?? text('title'),
    txHash: text('txHash'),
  };
}
