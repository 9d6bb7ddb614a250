// The terms a confirmation was asked on (docs/api.md#confirmation-terms): the mission, the action, the
// assignment and its agent, the submission round, the reward, the escrow task's amount and, for an
// award, the winners. Stored with the confirmation; an approval whose live terms differ is refused and
// the confirmation SUPERSEDED, so a yes given to one delivery at one price never pays another.
import 'server-only';
import { eq } from 'drizzle-orm';
import { type Hex, keccak256, stringToBytes } from 'viem';
import type { Db } from '../db/client';
import { type ConfirmationTerms, users } from '../db/schema';
import type { Mission } from '../missions/queries';

export type { ConfirmationTerms };

/** What a person confirms: releasing a delivery's payment, or a bounty's award. */
export type ReleaseAction = ConfirmationTerms['action'];

const KEYS = [
  'action',
  'agent',
  'agentId',
  'assignment',
  'missionId',
  'reward',
  'round',
  'taskAmount',
  'winners',
] as const satisfies readonly (keyof ConfirmationTerms)[];

/** docs/api.md#confirmation-terms: a settle's terms add the offer and its agentAmount, still alphabetical. */
const SETTLE_KEYS = [
  'action',
  'agent',
  'agentAmount',
  'agentId',
  'assignment',
  'missionId',
  'offerId',
  'reward',
  'round',
  'taskAmount',
  'winners',
] as const satisfies readonly (keyof ConfirmationTerms)[];

const keysOf = (terms: Pick<ConfirmationTerms, 'action'>) => (terms.action === 'settle' ? SETTLE_KEYS : KEYS);

/**
 * docs/api.md#confirmation-terms: the canonical JSON is JSON.stringify of the object with exactly these
 * keys in this (alphabetical) order, no whitespace; the hash is keccak256 of its UTF-8 bytes, 0x-prefixed lowercase.
 */
export function canonicalTerms(terms: ConfirmationTerms): string {
  return JSON.stringify(Object.fromEntries(keysOf(terms).map((key) => [key, terms[key] ?? null])));
}

export const termsHash = (terms: ConfirmationTerms): Hex => keccak256(stringToBytes(canonicalTerms(terms)));

/** The terms of `action` on the mission as it is now (the locked row, inside a transaction, at approval). */
export async function termsOf(
  db: Db,
  mission: Mission,
  action: ReleaseAction,
  body: Record<string, unknown>,
  taskAmount: bigint | null,
): Promise<ConfirmationTerms> {
  let agent: string | null = null;
  const paysAgent = action === 'approve' || action === 'settle';
  if (paysAgent && mission.agentId) {
    const [row] = await db
      .select({ wallet: users.walletAddress })
      .from(users)
      .where(eq(users.id, mission.agentId))
      .limit(1);
    agent = row?.wallet.toLowerCase() ?? null;
  }
  const winners = Array.isArray(body.winners) ? body.winners.map((w) => String(w).toLowerCase()) : [];
  // docs/api.md#settlement-offers: the offer asked about, as the mission holds it now (gone: another offer).
  const offer = mission.settlementOffer?.id === body.offerId ? mission.settlementOffer : null;
  const settleTerms =
    action === 'settle' ? { offerId: offer?.id ?? null, agentAmount: offer?.agentAmount ?? null } : {};
  return {
    ...settleTerms,
    action,
    agent,
    agentId: paysAgent ? mission.agentId : null,
    assignment: mission.assignment,
    missionId: mission.id,
    reward: String(mission.reward),
    round: mission.submissionCount,
    taskAmount: taskAmount === null ? null : taskAmount.toString(),
    winners: action === 'award' ? winners : null,
  };
}

/** The names of the terms that differ (an empty list: the same terms). */
export const changedTerms = (stored: ConfirmationTerms, live: ConfirmationTerms): string[] =>
  keysOf(stored).filter((key) => JSON.stringify(stored[key] ?? null) !== JSON.stringify(live[key] ?? null));
