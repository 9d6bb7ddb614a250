// What each side effect of the transition table (transitions.ts, `Effect`) writes beside the mission row,
// inside the transition's transaction: files, contests, the ledger and its settlement rows, a bounty's
// award. Each answers its part of the event the transition records — typed, so the webhook it raises
// (transition-webhooks.ts) reads the same fields it was given. The row's own columns are
// changes.ts's.
import 'server-only';
import type { Db } from '../db/client';
import { type CheckResultItem, missionContests, type SelfCheckItem, type UnmetItem, type Verdict } from '../db/schema';
import { recordAward, recordAwardContest } from './award';
import type { TransitionRequest } from './changes';
import { storeFiles } from './files';
import * as ledger from './ledger';
import { approveMilestone, recordMilestoneState, resetMilestone } from './milestones';
import type { Mission } from './queries';
import type { Effect } from './transitions';
import type { Viewer } from './visibility';

/** What the event log records of a transition (docs/api.md#mission-states), each effect its part. */
export interface EventData {
  round?: number;
  files?: string[];
  selfCheck?: SelfCheckItem[];
  /** docs/api.md#checked-criteria: the submission's check results. */
  checks?: CheckResultItem[];
  unmet?: UnmetItem[];
  /** A mission's completion: the agent's credit; a bounty's: the winners' places and the client's refund. */
  payout?: ledger.Payout | ledger.BountyPayout;
  /** docs/api.md#milestones: the milestone the transition was about. */
  milestone?: number;
  /** docs/api.md#settlement-offers: a settlement in part — who decided it, and the client's refund. */
  settlement?: { by: 'agreement' | 'operator'; agentAmount: string; refund: string };
  /** A bounty's award: its places and amounts, and the reason for places left unawarded. */
  award?: Awaited<ReturnType<typeof recordAward>>;
  reason?: string;
  reward?: { from: string; to: string };
  agentId?: string | null;
  note?: string;
  verdicts?: Verdict[];
}

export interface EffectContext {
  tx: Db;
  /** The mission as the transition found it, and as it wrote it. */
  before: Mission;
  after: Mission;
  viewer: Viewer;
  input: TransitionRequest;
  now: Date;
}

type EffectRun = (c: EffectContext) => Promise<EventData>;

const nothing: EffectRun = async () => ({});

function owner(c: EffectContext, kind: 'DELIVERABLE' | 'EVIDENCE', round: number) {
  if (c.viewer.kind !== 'user') throw new Error('files come from users');
  return { missionId: c.after.id, kind, assignment: c.after.assignment, round, uploaderId: c.viewer.id };
}

export const EFFECTS: { readonly [E in Effect]: EffectRun } = {
  // Who got the mission: the caller on accept, the owner's choice on assign (docs/api.md#applications).
  assign: async ({ after }) => ({ agentId: after.agentId }),
  // Who left it: the agent is still told (the webhook reads `before`). A milestone at hand starts over.
  unassign: async ({ tx, before }) => {
    if (before.milestoneCount) await resetMilestone(tx, before);
    return { agentId: before.agentId };
  },
  recordSubmission: async (c) => {
    const round = c.after.submissionCount;
    const files = await storeFiles(c.tx, owner(c, 'DELIVERABLE', round), c.input.files ?? [], c.now);
    const { selfCheck, checks } = c.input;
    return { round, files, ...(selfCheck ? { selfCheck } : {}), ...(checks ? { checks } : {}) };
  },
  recordContest: async (c) => {
    const round = c.after.contestCount;
    await c.tx.insert(missionContests).values({
      missionId: c.after.id,
      assignment: c.after.assignment,
      round,
      reason: c.input.reason ?? '',
      unmet: c.input.unmet ?? null,
      createdAt: c.now,
    });
    const files = await storeFiles(c.tx, owner(c, 'EVIDENCE', round), c.input.files ?? [], c.now);
    return { round, ...(c.input.unmet ? { unmet: c.input.unmet } : {}), files };
  },
  bump: async ({ before, after }) =>
    after.reward === before.reward ? {} : { reward: { from: before.reward, to: after.reward } },
  release: async ({ tx, after, now }) => ({ payout: await ledger.release(tx, after, now) }),
  refund: async ({ tx, after }) => {
    await ledger.refund(tx, after);
    return {};
  },
  reclaim: async ({ tx, after }) => {
    await ledger.reclaim(tx, after);
    return {};
  },
  openJudging: nothing,
  startSla: nothing,
  noteReason: async ({ input }) => (input.reason ? { reason: input.reason } : {}),
  recordAward: async ({ tx, after, input }) => ({ award: await recordAward(tx, after, input) }),
  recordAwardContest: async ({ tx, after, viewer, input, now }) => {
    if (viewer.kind !== 'user') throw new Error('an award is contested by an entrant');
    await recordAwardContest(tx, after.id, viewer.id, input.reason ?? '', now);
    return { reason: input.reason };
  },
  releaseSplit: async ({ tx, after, now }) => ({ payout: await ledger.releaseSplit(tx, after, now) }),
  recordMilestone: async ({ tx, before, after, now }) => ({
    milestone: await recordMilestoneState(tx, before, after, now),
  }),
  // docs/api.md#milestones: the milestone's amount less the fee to the agent, by releasePart (recorded first).
  releaseMilestone: async ({ tx, before, after, now }) => {
    const milestone = await approveMilestone(tx, before, now);
    return { milestone: milestone.number, payout: await ledger.releasePart(tx, after, milestone, now) };
  },
  settle: async ({ tx, after, input, now }) => {
    if (!input.settlement) throw new Error('settle needs the settlement');
    const { refund, ...payout } = await ledger.settle(tx, after, input.settlement.agentAmount, now);
    const settlement = { by: input.settlement.by, agentAmount: input.settlement.agentAmount.toString(), refund };
    return input.settlement.agentAmount > 0n ? { payout, settlement } : { settlement };
  },
};

/** Runs the transition's effects in the table's order; their parts make the event's data. */
export async function runEffects(effects: readonly Effect[], c: EffectContext): Promise<EventData> {
  const data: EventData = {};
  for (const effect of effects) Object.assign(data, await EFFECTS[effect](c));
  return data;
}
