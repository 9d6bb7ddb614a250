// The column changes each side effect of the transition table makes to the mission row. Pure:
// the mission, the caller's input and `now` in, the values to write out.
import type { Db } from '../db/client';
import type { CheckResultItem, MissionSettlement, SelfCheckItem, UnmetItem, Verdict } from '../db/schema';
import { ApiError } from '../errors';
import type { SpooledFile } from '../uploads';
import type { Mission } from './queries';
import type { Effect, MissionRules } from './transitions';
import type { Viewer } from './visibility';

export interface ActionInput {
  note?: string;
  reason?: string;
  /** Bump: the new reward, at least the current one. */
  reward?: bigint;
  /** Assign: the applicant the owner chose (accept assigns the caller). */
  assigneeId?: string;
  /** Award (docs/api.md#bounties): the winning entrants in place order, checked against the entries. */
  winners?: { agentId: string; address: string }[];
  /** docs/api.md#criteria: a submission's self-check, a contest's unmet criteria, the operator's verdicts. */
  selfCheck?: SelfCheckItem[];
  /** docs/api.md#checked-criteria: what the machine found of the submission's checked criteria, at submit. */
  checks?: CheckResultItem[];
  unmet?: UnmetItem[];
  verdicts?: Verdict[];
  /** docs/api.md#milestones: the milestone a submit, approve or contest is about: the one at hand. */
  milestone?: number;
  /** docs/api.md#settlement-offers: a settlement in part — the agent's part of the reward, and who decided it. */
  settlement?: { agentAmount: bigint; by: MissionSettlement['by'] };
}

export interface TransitionRequest extends ActionInput {
  files?: SpooledFile[];
  /**
   * Runs inside the transition's transaction once the transition is allowed, before it is written: a
   * delegated release counted against its grant, or a confirmation marked used (docs/api.md#confirmations).
   * It throws to stop the transition; nothing of it is then written.
   */
  gate?: TransitionGate;
}

export type TransitionGate = (tx: Db, mission: Mission, input: TransitionRequest) => Promise<void>;

type Changes = Partial<Omit<Mission, 'id' | 'status'>>;

// A new (or no) agent starts with no submission and a full set of contest rounds.
const freshRounds = {
  submissionCount: 0,
  submissionNote: null,
  submissionSelfCheck: null,
  submissionChecks: null,
  submittedAt: null,
  reviewDeadline: null,
  contestCount: 0,
  contestedAt: null,
} satisfies Changes;

function changesOf(
  effect: Effect,
  m: Mission,
  viewer: Viewer,
  input: ActionInput,
  now: Date,
  rules: MissionRules,
): Changes {
  switch (effect) {
    case 'assign': {
      const agentId = input.assigneeId ?? (viewer.kind === 'user' ? viewer.id : undefined);
      if (!agentId) throw new Error('only a user can be assigned');
      return { ...freshRounds, agentId, acceptedAt: now, assignment: m.assignment + 1 };
    }
    case 'unassign':
      return { ...freshRounds, agentId: null, acceptedAt: null, milestoneContestCount: 0 };
    case 'recordSubmission':
      return {
        submissionCount: m.submissionCount + 1,
        submissionNote: input.note ?? '',
        submissionSelfCheck: input.selfCheck ?? null,
        submissionChecks: input.checks ?? null,
        submittedAt: now,
        reviewDeadline: new Date(now.getTime() + rules.reviewWindowSeconds * 1000),
      };
    case 'recordContest':
      return {
        contestCount: m.contestCount + 1,
        contestedAt: now,
        reviewDeadline: null,
        // docs/api.md#milestones: MAX_CONTESTS rounds for each milestone; the mission's count numbers the rounds.
        ...(m.milestoneCount ? { milestoneContestCount: m.milestoneContestCount + 1 } : {}),
      };
    case 'recordMilestone':
      return {};
    case 'releaseMilestone': {
      const done = { reviewDeadline: null, contestedAt: null, milestoneContestCount: 0 } satisfies Changes;
      if ((m.milestone ?? 0) >= (m.milestoneCount ?? 0)) return { ...done, completedAt: now };
      // The next milestone is at hand: the agent works on it, with no submission yet and its own rounds.
      return {
        ...done,
        milestone: (m.milestone ?? 0) + 1,
        submissionNote: null,
        submissionSelfCheck: null,
        submissionChecks: null,
        submittedAt: null,
      };
    }
    case 'bump': {
      const current = BigInt(m.reward);
      const reward = input.reward ?? current;
      // A bump can top the reward up, never take from it.
      if (reward < current)
        throw new ApiError(400, 'Validation failed', [`reward: must be at least the current reward ${current}`]);
      // docs/api.md#milestones: the reward is its milestones' sum, each released as it stands.
      if (m.milestoneCount && reward !== current)
        throw new ApiError(409, "A milestone mission's reward is the sum of its milestones: it cannot be raised");
      return { bumpCount: m.bumpCount + 1, bumpedAt: now, listedAt: now, reward: reward.toString() };
    }
    case 'release':
      return { completedAt: now };
    case 'openJudging':
      // From the deadline, not from whenever the sweep got here: the client's window is fixed.
      return { reviewDeadline: new Date(m.deadline.getTime() + rules.reviewWindowSeconds * 1000) };
    case 'recordAward':
      return {
        awardedAt: now,
        awardReason: input.reason ?? null,
        reviewDeadline: new Date(now.getTime() + rules.reviewWindowSeconds * 1000),
      };
    case 'recordAwardContest':
      return { reviewDeadline: null };
    case 'releaseSplit':
      return { completedAt: now, reviewDeadline: null };
    case 'noteReason':
      return {};
    case 'startSla':
      // docs/api.md#offerings: the order's SLA runs from its funding.
      return { deadline: new Date(now.getTime() + (m.slaHours ?? 0) * 3_600_000) };
    case 'refund':
    case 'reclaim':
      return { cancelledAt: now };
    case 'settle': {
      if (!input.settlement) throw new Error('settle needs the settlement');
      const { agentAmount, by } = input.settlement;
      const settlement = {
        agentAmount: agentAmount.toString(),
        refund: (BigInt(m.reward) - agentAmount).toString(),
        by,
      };
      return agentAmount > 0n
        ? { settlement, completedAt: now, reviewDeadline: null }
        : { settlement, cancelledAt: now };
    }
  }
}

export function planChanges(
  effects: readonly Effect[],
  m: Mission,
  viewer: Viewer,
  input: ActionInput,
  now: Date,
  rules: MissionRules,
): Changes {
  // docs/api.md#milestones: an action naming a milestone names the one at hand.
  if (input.milestone !== undefined) {
    if (!m.milestoneCount) throw new ApiError(400, 'Validation failed', ['milestone: this mission has no milestones']);
    if (input.milestone !== m.milestone)
      throw new ApiError(409, `Milestone ${m.milestone} is the one at hand, not milestone ${input.milestone}`);
  }
  const changes = Object.assign(
    {},
    ...effects.map((effect) => changesOf(effect, m, viewer, input, now, rules)),
  ) as Changes;
  // docs/api.md#criteria: only the operator's resolve carries verdicts (lib/marketplace/mission-actions.ts).
  if (input.verdicts) changes.verdicts = input.verdicts;
  // docs/api.md#settlement-offers: every transition lapses the pending offer — whatever it was, it was about
  // the mission as it stood before.
  changes.settlementOffer = null;
  return changes;
}
