// The mission state machine of docs/api.md#mission-states as one declarative table — who may act, from which
// states, to which state, under which time rule, with which side effects — and `decide`, the
// one function every action asks. Pure: no database, no clock (time is passed in).
import type { MissionStatus } from '../db/schema/missions';
import { canSeeMission, type Viewer } from './visibility';

export type { MissionStatus };

/** What the rules need to know about a mission. */
export interface MissionFacts {
  status: MissionStatus;
  clientId: string;
  agentId: string | null;
  deadline: Date;
  reviewDeadline: Date | null;
  contestedAt: Date | null;
  contestCount: number;
  bumpedAt: Date | null;
  acceptedAt: Date | null;
  assignmentMode: 'FIRST_COME' | 'APPLICATION' | 'BOUNTY';
  entryCount: number;
  /** Whether the viewer entered this bounty: looked up only where an entrant's action or view asks. */
  entered?: boolean;
}

export interface MissionRules {
  reviewWindowSeconds: number;
  maxContests: number;
  acceptWindowSeconds: number;
}

/**
 * Who must be acting: the mission's owner, its assigned agent, any agent but the owner, an agent who entered the
 * bounty, the operator, or time.
 */
export type Party = 'owner' | 'assignee' | 'agent' | 'entrant' | 'operator' | 'system';

/** Side effects, carried out by apply-transition.ts in the same transaction as the state change. */
export type Effect =
  | 'assign' // agentId = the caller (accept) or the chosen applicant (assign), a new assignment
  | 'unassign' // the agent withdraws; submission and contest rounds start over
  | 'recordSubmission' // note and deliverable files, reviewDeadline = now + window
  | 'recordContest' // reason and evidence files
  | 'bump' // bumpedAt = now, bumpCount + 1, optional top-up
  | 'release' // reward less fee to the agent (ledger)
  | 'refund' // reward back to the client (ledger)
  | 'reclaim' // the client took the escrow back on-chain: no payout or refund is owed any more
  | 'openJudging' // a bounty past its deadline: the client has a review window from the deadline to award
  | 'recordAward' // winners' places and amounts, the reason for places left unawarded; entrants' window opens
  | 'recordAwardContest' // the entrant's reason, on its entry
  | 'releaseSplit'; // the bounty's places to the winners (ledger), unawarded places to the client

export interface Transition {
  party: Party;
  from: readonly MissionStatus[];
  to: (m: MissionFacts, rules: MissionRules) => MissionStatus;
  /** A time rule on top of the state: answers why the transition is refused now, or undefined. */
  when?: (m: MissionFacts, now: Date, rules: MissionRules) => string | undefined;
  /** A rate rule: the seconds still to wait before the transition may happen again (429), or 0. */
  cooldown?: (m: MissionFacts, now: Date) => number;
  effects: readonly Effect[];
  /** The name the event log records, when it is not the action's own (docs/api.md#mission-states: `reopened`). */
  event?: string;
}

const seconds = (s: number) => s * 1000;
const reviewOver = (m: Pick<MissionFacts, 'reviewDeadline'>, now: Date) =>
  m.reviewDeadline !== null && now >= m.reviewDeadline;
const isBounty = (m: Pick<MissionFacts, 'assignmentMode'>) => m.assignmentMode === 'BOUNTY';
const bountyOnly = (m: MissionFacts) => (isBounty(m) ? undefined : 'This mission is not a bounty');

export const TRANSITIONS = {
  // docs/api.md#post-and-pay: the relayed (or the poster's own) task is on-chain. Nothing else leaves
  // AWAITING_FUNDING: no action names it, so every one is refused; the sweep deletes it unfunded after 24 h.
  fund: { party: 'system', from: ['AWAITING_FUNDING'], to: () => 'OPEN', effects: [], event: 'funded' },
  accept: {
    party: 'agent',
    from: ['OPEN'],
    to: () => 'ACCEPTED',
    when: (m, now) => {
      // docs/api.md#applications: on such a mission the owner picks the agent from the applications.
      if (m.assignmentMode === 'APPLICATION') return 'This mission assigns its agent from applications: apply instead';
      if (isBounty(m)) return 'This mission is a bounty: submit an entry instead';
      // Nobody can deliver a mission whose deadline is behind us.
      return now >= m.deadline ? 'The mission deadline has passed' : undefined;
    },
    effects: ['assign'],
  },
  // docs/api.md#applications: the owner gives an APPLICATION mission to one of the agents who applied.
  assign: {
    party: 'owner',
    from: ['OPEN'],
    to: () => 'ACCEPTED',
    when: (m, now) => {
      if (m.assignmentMode !== 'APPLICATION') return 'This mission goes to the first agent to accept';
      return now >= m.deadline ? 'The mission deadline has passed' : undefined;
    },
    effects: ['assign'],
  },
  submit: { party: 'assignee', from: ['ACCEPTED', 'CONTESTED'], to: () => 'SUBMITTED', effects: ['recordSubmission'] },
  approve: { party: 'owner', from: ['SUBMITTED'], to: () => 'COMPLETED', effects: ['release'] },
  // Silence is approval: a review window that ran out completes the mission (sweep or read).
  expire: {
    party: 'system',
    from: ['SUBMITTED'],
    to: () => 'COMPLETED',
    when: (m, now) => (reviewOver(m, now) ? undefined : 'The review window is still open'),
    effects: ['release'],
  },
  contest: {
    party: 'owner',
    from: ['SUBMITTED'],
    // MAX_CONTESTS rounds go back to the agent; the one after that needs the operator.
    to: (m, rules) => (m.contestCount >= rules.maxContests ? 'DISPUTED' : 'CONTESTED'),
    when: (m, now) => (reviewOver(m, now) ? 'The review window has closed' : undefined),
    effects: ['recordContest'],
  },
  cancel: {
    party: 'owner',
    from: ['OPEN', 'ACCEPTED', 'CONTESTED'],
    to: () => 'CANCELLED',
    when: (m, now, rules) => {
      // docs/api.md#bounties: once the client may have seen entries, the reward goes to them or to the operator.
      if (isBounty(m) && m.entryCount > 0) return 'Agents have entered this bounty: award it after the deadline';
      if (m.status === 'ACCEPTED' && now < m.deadline) return 'The agent still has until the deadline';
      // The owner may walk away from a contest the agent left unanswered for a review window.
      if (
        m.status === 'CONTESTED' &&
        m.contestedAt &&
        now.getTime() < m.contestedAt.getTime() + seconds(rules.reviewWindowSeconds)
      ) {
        return 'The agent may still answer the contest';
      }
      return undefined;
    },
    effects: ['refund'],
  },
  withdraw: { party: 'assignee', from: ['ACCEPTED', 'CONTESTED'], to: () => 'OPEN', effects: ['unassign'] },
  // docs/api.md#mission-states: an agent who took the mission and went quiet does not hold it to its deadline;
  // after ACCEPT_WINDOW_SECONDS without a submission the owner puts it back on the board.
  reopen: {
    party: 'owner',
    from: ['ACCEPTED'],
    to: () => 'OPEN',
    when: (m, now, rules) => {
      const opensAt = (m.acceptedAt?.getTime() ?? 0) + seconds(rules.acceptWindowSeconds);
      return now.getTime() < opensAt
        ? `The agent has until ${new Date(opensAt).toISOString()} to deliver before it can be reopened`
        : undefined;
    },
    effects: ['unassign'],
    event: 'reopened',
  },
  bump: {
    party: 'owner',
    from: ['OPEN'],
    to: () => 'OPEN',
    // docs/api.md#limits: once an hour per mission. Kept on the row, so only a bump that happened counts.
    cooldown: (m, now) =>
      m.bumpedAt ? Math.max(0, Math.ceil((m.bumpedAt.getTime() + 3_600_000 - now.getTime()) / 1000)) : 0,
    effects: ['bump'],
  },
  // docs/api.md#escrow: the task's client reclaimed the expired escrow on-chain, which nobody can block.
  // The chain is the truth: the mission ends CANCELLED, whatever it was, and nothing is sent for it
  // (a COMPLETED mission whose release never got through loses its unpaid credit with it).
  reclaim: {
    party: 'system',
    from: ['OPEN', 'ACCEPTED', 'SUBMITTED', 'CONTESTED', 'DISPUTED', 'COMPLETED', 'JUDGING', 'AWARDED'],
    to: () => 'CANCELLED',
    effects: ['reclaim'],
    event: 'reclaimed',
  },
  resolveComplete: {
    party: 'operator',
    from: ['DISPUTED'],
    to: () => 'COMPLETED',
    when: (m) => (isBounty(m) ? 'A bounty is resolved with its winners' : undefined),
    effects: ['release'],
  },
  // docs/api.md#bounties, bounties. The deadline closes entries: with entries the client judges them for a
  // review window, without any the reward goes back.
  judge: {
    party: 'system',
    from: ['OPEN'],
    to: () => 'JUDGING',
    when: (m, now) =>
      bountyOnly(m) ??
      (now < m.deadline
        ? 'The bounty is still taking entries'
        : m.entryCount === 0
          ? 'No entries to judge'
          : undefined),
    effects: ['openJudging'],
  },
  lapse: {
    party: 'system',
    from: ['OPEN'],
    to: () => 'CANCELLED',
    when: (m, now) =>
      bountyOnly(m) ??
      (now < m.deadline
        ? 'The bounty is still taking entries'
        : m.entryCount > 0
          ? 'The bounty has entries'
          : undefined),
    effects: ['refund'],
    event: 'lapsed',
  },
  award: {
    party: 'owner',
    from: ['JUDGING'],
    to: () => 'AWARDED',
    when: (m, now) =>
      bountyOnly(m) ?? (reviewOver(m, now) ? 'The judging window has closed; the operator awards it' : undefined),
    effects: ['recordAward'],
  },
  // No award in the judging window: the client cannot sit on the entries; the operator awards.
  escalate: {
    party: 'system',
    from: ['JUDGING'],
    to: () => 'DISPUTED',
    when: (m, now) => bountyOnly(m) ?? (reviewOver(m, now) ? undefined : 'The judging window is still open'),
    effects: [],
    event: 'escalated',
  },
  contestAward: {
    party: 'entrant',
    from: ['AWARDED'],
    to: () => 'DISPUTED',
    when: (m, now) => bountyOnly(m) ?? (reviewOver(m, now) ? 'The contest window has closed' : undefined),
    effects: ['recordAwardContest'],
    event: 'contest',
  },
  finalize: {
    party: 'system',
    from: ['AWARDED'],
    to: () => 'COMPLETED',
    when: (m, now) => bountyOnly(m) ?? (reviewOver(m, now) ? undefined : 'Entrants may still contest the award'),
    effects: ['releaseSplit'],
  },
  resolveAward: {
    party: 'operator',
    from: ['DISPUTED'],
    to: () => 'COMPLETED',
    when: bountyOnly,
    effects: ['recordAward', 'releaseSplit'],
  },
  resolveCancel: { party: 'operator', from: ['DISPUTED'], to: () => 'CANCELLED', effects: ['refund'] },
} as const satisfies Record<string, Transition>;

export type Action = keyof typeof TRANSITIONS;

/**
 * What time alone does to the mission now, if anything: a review window over completes a
 * submission; a bounty's deadline closes it (judge or lapse), its judging window over escalates
 * it, its contest window over completes it. Run before any other action and on every read.
 */
export function dueAction(
  m: Pick<MissionFacts, 'status' | 'deadline' | 'reviewDeadline' | 'assignmentMode' | 'entryCount'>,
  now: Date,
): Action | undefined {
  if (m.status === 'SUBMITTED') return reviewOver(m, now) ? 'expire' : undefined;
  if (!isBounty(m)) return undefined;
  if (m.status === 'OPEN') return now < m.deadline ? undefined : m.entryCount > 0 ? 'judge' : 'lapse';
  if (m.status === 'JUDGING') return reviewOver(m, now) ? 'escalate' : undefined;
  if (m.status === 'AWARDED') return reviewOver(m, now) ? 'finalize' : undefined;
  return undefined;
}

export type Decision =
  | { ok: true; from: MissionStatus; to: MissionStatus; transition: Transition }
  | { ok: false; status: 403 | 404 | 409; message: string }
  | { ok: false; status: 429; message: string; retryAfter: number };

function isParty(party: Party, m: MissionFacts, viewer: Viewer): boolean {
  switch (party) {
    case 'owner':
      return viewer.kind === 'user' && viewer.id === m.clientId;
    case 'assignee':
      return viewer.kind === 'user' && m.agentId !== null && viewer.id === m.agentId;
    case 'agent':
      return viewer.kind === 'user' && viewer.role === 'AGENT' && viewer.id !== m.clientId;
    case 'entrant':
      return viewer.kind === 'user' && m.entered === true;
    case 'operator':
      return viewer.kind === 'operator';
    case 'system':
      return viewer.kind === 'system';
  }
}

/**
 * Whether `viewer` may take `action` on the mission now. The order matters: a caller who is not
 * the named party learns nothing about a mission it may not see (404) and is refused (403) on one
 * it may; only the named party hears about the state (409).
 */
export function decide(action: Action, m: MissionFacts, viewer: Viewer, now: Date, rules: MissionRules): Decision {
  const transition: Transition = TRANSITIONS[action];
  // docs/api.md#post-and-pay: an unfunded mission does not exist for anyone but its poster.
  if (m.status === 'AWAITING_FUNDING' && !canSeeMission(m, viewer))
    return { ok: false, status: 404, message: 'Mission not found' };
  if (!isParty(transition.party, m, viewer)) {
    return canSeeMission(m, viewer)
      ? { ok: false, status: 403, message: forbiddenMessage(transition.party) }
      : { ok: false, status: 404, message: 'Mission not found' };
  }
  if (!transition.from.includes(m.status)) {
    return { ok: false, status: 409, message: `Mission is ${m.status}; ${action} is not allowed` };
  }
  const refusal = transition.when?.(m, now, rules);
  if (refusal) return { ok: false, status: 409, message: refusal };
  const wait = transition.cooldown?.(m, now) ?? 0;
  if (wait > 0)
    return { ok: false, status: 429, message: `Too many requests: ${action} again in ${wait} s`, retryAfter: wait };
  return { ok: true, from: m.status, to: transition.to(m, rules), transition };
}

function forbiddenMessage(party: Party): string {
  if (party === 'owner') return "Only the mission's owner may do this";
  if (party === 'assignee') return "Only the mission's assigned agent may do this";
  if (party === 'agent') return 'Only an agent other than the owner may accept the mission';
  if (party === 'entrant') return 'Only an agent who entered the bounty may do this';
  return 'Not allowed';
}
