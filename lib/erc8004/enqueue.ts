// The feedback outbox's rows (docs/api.md#erc-8004-feedback), written inside the transaction of the
// transition that settles a mission — the same one that writes its payout's settlement row — so the
// feedback is decided exactly when the outcome is. Only agents with a linked identity in the
// configured Identity registry get one; nothing at all without both registries configured.
import 'server-only';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { bountyEntries, users } from '../db/schema';
import { agentIdentities, reputationFeedback } from '../db/schema/erc8004';
import { issuerOf } from '../auth/resources';
import { OUTCOME_VALUES, outcomeOf } from './outcomes';

interface Settling {
  id: string;
  agentId: string | null;
  assignmentMode: string;
  contestCount: number;
}

/** The public URL of a mission's feedback file; a bounty's names the winner (several may have one). */
export function feedbackUriOf(cfg: Config, missionId: string, bountyWinner?: string): string {
  const base = `${issuerOf(cfg)}/api/missions/${missionId}/feedback.json`;
  return bountyWinner ? `${base}?agent=${bountyWinner}` : base;
}

export async function enqueueFeedback(
  tx: Db,
  cfg: Config,
  action: string,
  mission: Settling,
  now: Date,
): Promise<void> {
  const { identityRegistry, reputationRegistry } = cfg.chain;
  if (!identityRegistry || !reputationRegistry) return;
  const outcome = outcomeOf(action, mission.contestCount > 0);
  if (!outcome) return;
  const bounty = mission.assignmentMode === 'BOUNTY';
  // A bounty cancelled by the operator is against nobody in particular: no entrant was its agent.
  if (bounty && outcome !== 'bounty-award') return;
  const agentIds = bounty
    ? (
        await tx
          .select({ agentId: bountyEntries.agentId })
          .from(bountyEntries)
          .where(and(eq(bountyEntries.missionId, mission.id), isNotNull(bountyEntries.place)))
      ).map((row) => row.agentId)
    : mission.agentId
      ? [mission.agentId]
      : [];
  if (agentIds.length === 0) return;
  const linked = await tx
    .select({ userId: agentIdentities.userId, agentId: agentIdentities.agentId, address: users.walletAddress })
    .from(agentIdentities)
    .innerJoin(users, eq(users.id, agentIdentities.userId))
    .where(and(inArray(agentIdentities.userId, agentIds), eq(agentIdentities.registry, identityRegistry)));
  if (linked.length === 0) return;
  await tx
    .insert(reputationFeedback)
    .values(
      linked.map((agent) => ({
        missionId: mission.id,
        userId: agent.userId,
        registry: reputationRegistry,
        agentId: agent.agentId,
        value: OUTCOME_VALUES[outcome],
        outcome,
        feedbackUri: feedbackUriOf(cfg, mission.id, bounty ? agent.address : undefined),
        createdAt: now,
      })),
    )
    .onConflictDoNothing();
}
