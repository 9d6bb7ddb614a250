// The feedback outbox's rows (docs/api.md#erc-8004-feedback), written inside the transaction of the
// transition that settles a mission — the same one that writes its payout's settlement row — so the
// feedback is decided exactly when the outcome is. Only agents with a linked identity in the
// configured Identity registry get one; nothing at all without both registries configured. Reputation
// is not for sale at a base unit (docs/api.md#feedback-bounds): a reward under ERC8004_MIN_FEEDBACK_REWARD
// gives none, and one client gives one agent at most one feedback a day. A client linked to an identity
// (a client that is an agent) gets feedback from the same settlement, tag1 `client`
// (docs/api.md#client-feedback), under the same floor and the same pair rule the other way round: one
// agent's settlements give one client at most one feedback a day.
import 'server-only';
import { and, asc, eq, gt, inArray, isNotNull } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { bountyEntries, missions, users } from '../db/schema';
import { agentIdentities, reputationFeedback } from '../db/schema/erc8004';
import { issuerOf } from '../auth/resources';
import {
  CLIENT_OUTCOME_VALUES,
  clientOutcomeOf,
  milestonesOutcome,
  OUTCOME_VALUES,
  outcomeOf,
  partialValue,
} from './outcomes';
import { markMissionSends } from '../outbox/marks';

/** docs/api.md#feedback-bounds: a client gives an agent at most one feedback in this long. */
export const FEEDBACK_PAIR_WINDOW_MS = 24 * 60 * 60 * 1000;

interface Settling {
  id: string;
  clientId: string;
  agentId: string | null;
  /** Base units, a decimal string. */
  reward: string;
  assignmentMode: string;
  contestCount: number;
  status?: string;
  milestoneCount?: number | null;
  /** docs/api.md#milestones: what the milestones released (base units). */
  released?: string;
  /** docs/api.md#split-feedback: set when the mission was settled in part. */
  settlement?: { agentAmount: string } | null;
}

/** The public URL of a mission's feedback file; a bounty's names the winner (several may have one). */
export function feedbackUriOf(cfg: Config, missionId: string, bountyWinner?: string): string {
  const base = `${issuerOf(cfg)}/api/missions/${missionId}/feedback.json`;
  return bountyWinner ? `${base}?agent=${bountyWinner}` : base;
}

/** docs/api.md#client-feedback: the file of what a settlement said of its client, named by `?client=`. */
export const clientFeedbackUriOf = (cfg: Config, missionId: string, client: string): string =>
  `${issuerOf(cfg)}/api/missions/${missionId}/feedback.json?client=${client}`;

export async function enqueueFeedback(
  tx: Db,
  cfg: Config,
  action: string,
  mission: Settling,
  now: Date,
): Promise<void> {
  const { identityRegistry, reputationRegistry } = cfg.chain;
  if (!identityRegistry || !reputationRegistry) return;
  // docs/api.md#milestones: one feedback when a milestone mission ends, from what its milestones released.
  const parts = mission.milestoneCount
    ? milestonesOutcome(action, mission.status ?? '', BigInt(mission.released ?? '0'), BigInt(mission.reward))
    : undefined;
  const outcome = mission.milestoneCount ? parts?.outcome : outcomeOf(action, mission.contestCount > 0);
  const bounty = mission.assignmentMode === 'BOUNTY';
  // A bounty cancelled by the operator is against nobody in particular: no entrant was its agent.
  const aboutAgents = outcome !== undefined && (!bounty || outcome === 'bounty-award');
  // Each agent the settlement speaks of, with the reward it was paid: a bounty place's own amount.
  const paid = !aboutAgents
    ? []
    : bounty
      ? (
          await tx
            .select({ agentId: bountyEntries.agentId, amount: bountyEntries.amount })
            .from(bountyEntries)
            .where(and(eq(bountyEntries.missionId, mission.id), isNotNull(bountyEntries.place)))
        ).map((row) => ({ agentId: row.agentId, reward: BigInt(row.amount ?? '0') }))
      : mission.agentId
        ? [
            {
              agentId: mission.agentId,
              reward: parts && outcome === 'partial' ? BigInt(mission.released!) : BigInt(mission.reward),
            },
          ]
        : [];
  const rewardOf = new Map(
    paid.filter((p) => p.reward >= cfg.chain.minFeedbackReward).map((p) => [p.agentId, p.reward]),
  );
  // docs/api.md#client-feedback: a mission's client, when the settlement speaks of it and paid enough.
  const clientOutcome = bounty || !mission.agentId ? undefined : clientOutcomeOf(action);
  const aboutClient = clientOutcome !== undefined && BigInt(mission.reward) >= cfg.chain.minFeedbackReward;
  const subjects = [...rewardOf.keys(), ...(aboutClient ? [mission.clientId] : [])];
  if (subjects.length === 0) return;
  // FOR UPDATE, in one order, the agents' and the client's identities in one statement: two settlements for
  // the same agent (or client) take turns here, so the second sees the first's row below and the pair gets
  // one feedback (docs/api.md#feedback-bounds); one order for all, so two settlements never deadlock.
  const locked = await tx
    .select({ userId: agentIdentities.userId, agentId: agentIdentities.agentId, address: users.walletAddress })
    .from(agentIdentities)
    .innerJoin(users, eq(users.id, agentIdentities.userId))
    .where(and(inArray(agentIdentities.userId, subjects), eq(agentIdentities.registry, identityRegistry)))
    .orderBy(asc(agentIdentities.userId))
    .for('update', { of: agentIdentities });
  if (locked.length === 0) return;
  markMissionSends(mission.id);
  const client = aboutClient ? locked.find((identity) => identity.userId === mission.clientId) : undefined;
  if (client) await enqueueClientFeedback(tx, cfg, mission, client, clientOutcome!, now);
  const linked = locked.filter((identity) => rewardOf.has(identity.userId));
  if (linked.length === 0) return;
  // A new statement after the locks: it sees every feedback row committed by then.
  const recent = await tx
    .select({ userId: reputationFeedback.userId })
    .from(reputationFeedback)
    .innerJoin(missions, eq(missions.id, reputationFeedback.missionId))
    .where(
      and(
        inArray(
          reputationFeedback.userId,
          linked.map((agent) => agent.userId),
        ),
        eq(reputationFeedback.subject, 'agent'),
        eq(missions.clientId, mission.clientId),
        gt(reputationFeedback.createdAt, new Date(now.getTime() - FEEDBACK_PAIR_WINDOW_MS)),
      ),
    );
  const given = new Set(recent.map((row) => row.userId));
  const due = linked.filter((agent) => !given.has(agent.userId));
  if (due.length === 0) return;
  const value =
    parts?.value ??
    (outcome === 'partial'
      ? partialValue(BigInt(mission.settlement?.agentAmount ?? '0'), BigInt(mission.reward))
      : OUTCOME_VALUES[outcome!]);
  await tx
    .insert(reputationFeedback)
    .values(
      due.map((agent) => ({
        missionId: mission.id,
        userId: agent.userId,
        registry: reputationRegistry,
        agentId: agent.agentId,
        value,
        reward: rewardOf.get(agent.userId)!.toString(),
        outcome: outcome!,
        feedbackUri: feedbackUriOf(cfg, mission.id, bounty ? agent.address : undefined),
        createdAt: now,
      })),
    )
    .onConflictDoNothing();
}

/**
 * docs/api.md#client-feedback: the client's row, unless this agent's settlements gave the client one in the
 * last 24 h (under the lock taken above on the client's identity).
 */
async function enqueueClientFeedback(
  tx: Db,
  cfg: Config,
  mission: Settling,
  client: { userId: string; agentId: string; address: string },
  outcome: keyof typeof CLIENT_OUTCOME_VALUES,
  now: Date,
): Promise<void> {
  const [recent] = await tx
    .select({ id: reputationFeedback.id })
    .from(reputationFeedback)
    .innerJoin(missions, eq(missions.id, reputationFeedback.missionId))
    .where(
      and(
        eq(reputationFeedback.userId, client.userId),
        eq(reputationFeedback.subject, 'client'),
        eq(missions.agentId, mission.agentId!),
        gt(reputationFeedback.createdAt, new Date(now.getTime() - FEEDBACK_PAIR_WINDOW_MS)),
      ),
    )
    .limit(1);
  if (recent) return;
  await tx
    .insert(reputationFeedback)
    .values({
      missionId: mission.id,
      subject: 'client',
      userId: client.userId,
      registry: cfg.chain.reputationRegistry!,
      agentId: client.agentId,
      value: CLIENT_OUTCOME_VALUES[outcome],
      reward: mission.reward,
      outcome,
      feedbackUri: clientFeedbackUriOf(cfg, mission.id, client.address),
      createdAt: now,
    })
    .onConflictDoNothing();
}
