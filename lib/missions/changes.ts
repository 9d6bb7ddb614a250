// The column changes each side effect of the transition table makes to the mission row. Pure:
// the mission, the caller's input and `now` in, the values to write out.
import type { SelfCheckItem, UnmetItem, Verdict } from '../db/schema';
import { ApiError } from '../errors';
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
  unmet?: UnmetItem[];
  verdicts?: Verdict[];
}

type Changes = Partial<Omit<Mission, 'id' | 'status'>>;

// A new (or no) agent starts with no submission and a full set of contest rounds.
const freshRounds = {
  submissionCount: 0,
  submissionNote: null,
  submissionSelfCheck: null,
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
      return { ...freshRounds, agentId: null, acceptedAt: null };
    case 'recordSubmission':
      return {
        submissionCount: m.submissionCount + 1,
        submissionNote: input.note ?? '',
        submissionSelfCheck: input.selfCheck ?? null,
        submittedAt: now,
        reviewDeadline: new Date(now.getTime() + rules.reviewWindowSeconds * 1000),
      };
    case 'recordContest':
      return { contestCount: m.contestCount + 1, contestedAt: now, reviewDeadline: null };
    case 'bump': {
      const current = BigInt(m.reward);
      const reward = input.reward ?? current;
      // A bump can top the reward up, never take from it.
      if (reward < current)
        throw new ApiError(400, 'Validation failed', [`reward: must be at least the current reward ${current}`]);
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
    case 'refund':
    case 'reclaim':
      return { cancelledAt: now };
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
  const changes = Object.assign(
    {},
    ...effects.map((effect) => changesOf(effect, m, viewer, input, now, rules)),
  ) as Changes;
  // docs/api.md#criteria: only the operator's resolve carries verdicts (actions.ts).
  if (input.verdicts) changes.verdicts = input.verdicts;
  return changes;
}
