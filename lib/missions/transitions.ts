// The mission state machine of docs/api.md#mission-states as one declarative table — who may act, from which
// states, to which state, under which time rule, with which side effects — and `decide`, the
// one function every action asks. Pure: no database, no clock (time is passed in).
import type { MissionStatus } from '../db/schema/missions';
import type { WebhookEvent } from '../webhooks/schemas';
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
  assignmentMode: 'FIRST_COME' | 'APPLICATION' | 'BOUNTY' | 'DIRECT';
  /** docs/api.md#direct-missions: the one agent a DIRECT mission is offered to. */
  directAgentId?: string | null;
  /** docs/api.md#offerings: the offering an order came from; funded, it is accepted by the offering's agent. */
  offeringId?: string | null;
  /** When it was funded and put before its agent (the board's listedAt). */
  listedAt?: Date;
  submissionCount?: number;
  entryCount: number;
  /** docs/api.md#milestones: how many milestones (null: none), the one at hand, its contest rounds. */
  milestoneCount?: number | null;
  milestone?: number | null;
  milestoneContestCount?: number;
  /** docs/api.md#checked-criteria: approved at submit on passing checks, and the submission's results. */
  autoApprove?: 'onChecks' | null;
  submissionChecks?: readonly { passed: boolean }[] | null;
  /** Whether the viewer entered this bounty: looked up only where an entrant's action or view asks. */
  entered?: boolean;
  /** Whether the viewer applied in this round: looked up only where an applicant's action asks. */
  applied?: boolean;
  /** How many agents applied in this round: looked up where a mission's `actions` are (an assign needs one). */
  applicants?: number;
}

export interface MissionRules {
  reviewWindowSeconds: number;
  maxContests: number;
  acceptWindowSeconds: number;
  /** docs/api.md#declining: how long after an order is accepted its agent may still decline it. */
  declineWindowSeconds?: number;
}

/**
 * Who must be acting: the mission's owner, its assigned agent, either of those two (a participant), any
 * agent but the owner, an agent who entered the bounty, the operator, or time.
 */
export type Party = 'owner' | 'assignee' | 'participant' | 'agent' | 'named' | 'entrant' | 'operator' | 'system';

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
  | 'releaseSplit' // the bounty's places to the winners (ledger), unawarded places to the client
  | 'recordMilestone' // the milestone at hand takes the mission's new state (its submission, contest, dispute)
  | 'releaseMilestone' // the milestone at hand's amount to the agent (ledger, releasePart); the next is at hand
  | 'settle' // part of the reward to the agent less the fee on it, the rest back to the client (ledger)
  | 'startSla' // docs/api.md#offerings: deadline = now + the order's slaHours
  | 'noteReason'; // the caller's reason, in the event (docs/api.md#declining)
// A row whose effects are `[]` and whose `to` is its `from` (apply, enter) is run by its own route, which
// asks `decide` for it and writes its own rows (an application, an entry): the state does not move.

export interface Transition {
  party: Party;
  from: readonly MissionStatus[];
  /** The state it reaches: one, or one of a few picked by the mission (a contest past its rounds disputes). */
  to:
    | MissionStatus
    | { among: readonly MissionStatus[]; pick: (m: MissionFacts, rules: MissionRules) => MissionStatus };
  /** A time rule on top of the state: answers why the transition is refused now, or undefined. */
  when?: (m: MissionFacts, now: Date, rules: MissionRules) => string | undefined;
  /**
   * The instant the transition stops being allowed (null: never), and the refusal from then on. `decide`
   * refuses by it and a mission's `actions` answer it as `until` (docs/api.md#next-actions).
   */
  until?: { at: (m: MissionFacts, rules: MissionRules) => Date | null; refusal: (m: MissionFacts) => string };
  /** A rate rule: the seconds still to wait before the transition may happen again (429), or 0. */
  cooldown?: (m: MissionFacts, now: Date) => number;
  effects: readonly Effect[];
  /** The name the event log records, when it is not the action's own (docs/api.md#mission-states: `reopened`). */
  event?: string;
  /**
   * The webhook it raises (docs/api.md#webhooks): to the mission's parties, or to a bounty's client and
   * entrants; by the state it reached where that decides. None: nobody is told.
   */
  webhook?: WebhookEvent | ((to: MissionStatus) => WebhookEvent);
  /** Where the API's reference files it (docs/api.md): the missions' own by default. */
  topic?: 'Marketplace' | 'Bounties';
}

const seconds = (s: number) => s * 1000;
const reviewOver = (m: Pick<MissionFacts, 'reviewDeadline'>, now: Date) =>
  m.reviewDeadline !== null && now >= m.reviewDeadline;
const isBounty = (m: Pick<MissionFacts, 'assignmentMode'>) => m.assignmentMode === 'BOUNTY';
const bountyOnly = (m: MissionFacts) => (isBounty(m) ? undefined : 'This mission is not a bounty');
// docs/api.md#milestones: the rows of a milestone mission's milestone at hand.
const hasMilestones = (m: Pick<MissionFacts, 'milestoneCount'>) => (m.milestoneCount ?? 0) > 0;
const milestonesOnly = (m: MissionFacts) => (hasMilestones(m) ? undefined : 'This mission has no milestones');
const wholeOnly = (m: MissionFacts) =>
  hasMilestones(m) ? 'This mission is delivered milestone by milestone' : undefined;
// An approved milestone hands the mission to the next one; the last one completes it.
const nextMilestone = {
  among: ['ACCEPTED', 'COMPLETED'],
  pick: (m) => ((m.milestone ?? 0) < (m.milestoneCount ?? 0) ? 'ACCEPTED' : 'COMPLETED'),
} as const satisfies Transition['to'];
const milestoneApproved = (to: MissionStatus): WebhookEvent =>
  to === 'COMPLETED' ? 'mission.completed' : 'mission.milestone_approved';
// docs/api.md#settlement-offers: settled in part, all at once, by one agent. A milestone mission is not: its
// escrow task holds only what its milestones have not released, and it ends milestone by milestone (or the
// operator's COMPLETED / CANCELLED on a disputed one) — docs/api.md#milestones.
const singleAgent = (m: MissionFacts) =>
  isBounty(m)
    ? 'A bounty is settled by its award'
    : hasMilestones(m)
      ? 'A milestone mission is settled milestone by milestone, not in part'
      : undefined;
// The time guards the rows share: until the mission's deadline, or until its review (judging, contest) window closes.
const untilDeadline = (refusal: (m: MissionFacts) => string) => ({ at: (m: MissionFacts) => m.deadline, refusal });
const untilReviewEnds = (refusal: string) => ({ at: (m: MissionFacts) => m.reviewDeadline, refusal: () => refusal });
const deadlinePassed = () => 'The mission deadline has passed';
const isDirect = (m: Pick<MissionFacts, 'assignmentMode'>) => m.assignmentMode === 'DIRECT';
/** docs/api.md#declining: 24 hours unless the rules say otherwise. */
export const DECLINE_WINDOW_SECONDS = 86_400;
const declineCloses = (m: MissionFacts, rules: Pick<MissionRules, 'declineWindowSeconds'>) =>
  new Date((m.acceptedAt?.getTime() ?? 0) + seconds(rules.declineWindowSeconds ?? DECLINE_WINDOW_SECONDS));

export const TRANSITIONS = {
  // docs/api.md#post-and-pay: the relayed (or the poster's own) task is on-chain. Nothing else leaves
  // AWAITING_FUNDING: no action names it, so every one is refused; the sweep deletes it unfunded after 24 h.
  fund: { party: 'system', from: ['AWAITING_FUNDING'], to: 'OPEN', effects: [], event: 'funded' },
  accept: {
    party: 'agent',
    webhook: 'mission.accepted',
    from: ['OPEN'],
    to: 'ACCEPTED',
    when: (m) => {
      // docs/api.md#applications: on such a mission the owner picks the agent from the applications.
      if (m.assignmentMode === 'APPLICATION') return 'This mission assigns its agent from applications: apply instead';
      if (isBounty(m)) return 'This mission is a bounty: submit an entry instead';
      return undefined;
    },
    // Nobody can deliver a mission whose deadline is behind us.
    until: untilDeadline(deadlinePassed),
    effects: ['assign'],
  },
  // docs/api.md#applications: the owner gives an APPLICATION mission to one of the agents who applied.
  assign: {
    party: 'owner',
    topic: 'Marketplace',
    webhook: 'mission.accepted',
    from: ['OPEN'],
    to: 'ACCEPTED',
    when: (m) => {
      if (m.assignmentMode !== 'APPLICATION') return 'This mission goes to the first agent to accept';
      return m.applicants === 0 ? 'Nobody has applied to this mission yet' : undefined;
    },
    until: untilDeadline(deadlinePassed),
    effects: ['assign'],
  },
  // docs/api.md#applications: an agent applies to an APPLICATION mission with a pitch, once per round; the
  // application is its own row (lib/marketplace/applications.ts), the mission stays OPEN.
  apply: {
    party: 'agent',
    topic: 'Marketplace',
    from: ['OPEN'],
    to: 'OPEN',
    when: (m) => {
      if (m.assignmentMode !== 'APPLICATION')
        return 'This mission goes to the first agent to accept: accept it instead';
      return m.applied ? 'You have already applied to this mission' : undefined;
    },
    effects: [],
  },
  // docs/api.md#bounties: an agent enters an OPEN bounty before its deadline (lib/bounties/entries.ts), or
  // replaces its entry; the mission stays OPEN.
  enter: {
    party: 'agent',
    topic: 'Bounties',
    from: ['OPEN'],
    to: 'OPEN',
    when: bountyOnly,
    until: untilDeadline((m) => `The bounty closed for entries at ${m.deadline.toISOString()}`),
    effects: [],
  },
  // docs/api.md#offerings: a funded order is accepted at once by the offering's agent, its SLA from now.
  acceptOrder: {
    topic: 'Marketplace',
    party: 'system',
    webhook: 'mission.accepted',
    from: ['OPEN'],
    to: 'ACCEPTED',
    when: (m) => (m.offeringId ? undefined : 'This mission is not an order'),
    effects: ['assign', 'startSla'],
    event: 'accepted',
  },
  // docs/api.md#declining: the named agent turns a DIRECT mission down, while it is OPEN or within the
  // decline window of being accepted and before any submission; the client gets the reward back.
  decline: {
    topic: 'Marketplace',
    party: 'named',
    webhook: 'mission.declined',
    from: ['OPEN', 'ACCEPTED'],
    to: 'CANCELLED',
    when: (m) => {
      if (!isDirect(m)) return 'Only a DIRECT mission can be declined';
      if (m.status === 'OPEN') return undefined;
      return (m.submissionCount ?? 0) > 0 ? 'The agent has submitted: it can no longer decline' : undefined;
    },
    // Accepted, it may be declined for the decline window only; `actions` reports that instant as `until`.
    until: {
      at: (m, rules) => (m.status === 'ACCEPTED' ? declineCloses(m, rules) : null),
      refusal: () => 'The decline window closed: the agent can no longer decline',
    },
    effects: ['refund', 'noteReason'],
    event: 'declined',
  },
  submit: {
    party: 'assignee',
    from: ['ACCEPTED', 'CONTESTED'],
    to: 'SUBMITTED',
    when: wholeOnly,
    effects: ['recordSubmission'],
    webhook: 'mission.submitted',
  },
  approve: {
    party: 'owner',
    from: ['SUBMITTED'],
    to: 'COMPLETED',
    when: wholeOnly,
    effects: ['release'],
    webhook: 'mission.completed',
  },
  // docs/api.md#checked-criteria: the client's approval given in advance, taken at submit when every check
  // passed (the submit route asks, with the escrow's and the grant's gates); the event log names it approve.
  approveOnChecks: {
    party: 'system',
    from: ['SUBMITTED'],
    to: 'COMPLETED',
    when: (m) => {
      if (m.autoApprove !== 'onChecks') return 'This mission is not approved on checks';
      const checks = m.submissionChecks ?? [];
      return checks.length > 0 && checks.every((c) => c.passed) ? wholeOnly(m) : 'Not every check passed';
    },
    effects: ['release'],
    event: 'approve',
    webhook: 'mission.completed',
  },
  // Silence is approval: a review window that ran out completes the mission (sweep or read).
  expire: {
    party: 'system',
    from: ['SUBMITTED'],
    to: 'COMPLETED',
    when: (m, now) => wholeOnly(m) ?? (reviewOver(m, now) ? undefined : 'The review window is still open'),
    effects: ['release'],
    webhook: 'mission.completed',
  },
  contest: {
    party: 'owner',
    from: ['SUBMITTED'],
    // MAX_CONTESTS rounds go back to the agent; the one after that needs the operator.
    to: {
      among: ['CONTESTED', 'DISPUTED'],
      pick: (m, rules) => (m.contestCount >= rules.maxContests ? 'DISPUTED' : 'CONTESTED'),
    },
    when: wholeOnly,
    until: untilReviewEnds('The review window has closed'),
    effects: ['recordContest'],
    webhook: (to) => (to === 'DISPUTED' ? 'mission.disputed' : 'mission.contested'),
  },
  cancel: {
    party: 'owner',
    from: ['OPEN', 'ACCEPTED', 'CONTESTED'],
    to: 'CANCELLED',
    when: (m, now, rules) => {
      // docs/api.md#bounties: once the client may have seen entries, the reward goes to them or to the operator.
      if (isBounty(m) && m.entryCount > 0) return 'Agents have entered this bounty: award it after the deadline';
      // docs/api.md#direct-missions: the named agent has ACCEPT_WINDOW_SECONDS from the funding to answer.
      if (isDirect(m) && m.status === 'OPEN') {
        const opensAt = (m.listedAt?.getTime() ?? 0) + seconds(rules.acceptWindowSeconds);
        if (now.getTime() < opensAt)
          return `The named agent has until ${new Date(opensAt).toISOString()} to accept before it can be cancelled`;
      }
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
    webhook: 'mission.cancelled',
  },
  withdraw: {
    party: 'assignee',
    from: ['ACCEPTED', 'CONTESTED'],
    to: 'OPEN',
    effects: ['unassign'],
    webhook: 'mission.reopened',
  },
  // docs/api.md#mission-states: an agent who took the mission and went quiet does not hold it to its deadline;
  // after ACCEPT_WINDOW_SECONDS without a submission the owner puts it back on the board.
  reopen: {
    party: 'owner',
    from: ['ACCEPTED'],
    to: 'OPEN',
    when: (m, now, rules) => {
      const opensAt = (m.acceptedAt?.getTime() ?? 0) + seconds(rules.acceptWindowSeconds);
      return now.getTime() < opensAt
        ? `The agent has until ${new Date(opensAt).toISOString()} to deliver before it can be reopened`
        : undefined;
    },
    effects: ['unassign'],
    event: 'reopened',
    webhook: 'mission.reopened',
  },
  bump: {
    party: 'owner',
    // docs/api.md#escrow: on the board; and where a release waits (a delivery, a bounty being judged), to
    // raise the reward to what a topped-up task holds — a release is refused until they agree.
    from: ['OPEN', 'SUBMITTED', 'JUDGING'],
    to: { among: ['OPEN', 'SUBMITTED', 'JUDGING'], pick: (m) => m.status },
    // docs/api.md#milestones: a milestone mission's reward is its milestones' sum, so only its listing is
    // bumped (OPEN, the reward as it is); where a release waits there is nothing a bump could do.
    when: (m) =>
      hasMilestones(m) && m.status !== 'OPEN'
        ? "A milestone mission's reward is the sum of its milestones: it cannot be raised"
        : undefined,
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
    to: 'CANCELLED',
    effects: ['reclaim'],
    event: 'reclaimed',
    webhook: 'mission.cancelled',
  },
  resolveComplete: {
    party: 'operator',
    from: ['DISPUTED'],
    to: 'COMPLETED',
    when: (m) => (isBounty(m) ? 'A bounty is resolved with its winners' : wholeOnly(m)),
    effects: ['release'],
    webhook: 'mission.completed',
  },
  // docs/api.md#bounties, bounties. The deadline closes entries: with entries the client judges them for a
  // review window, without any the reward goes back.
  judge: {
    topic: 'Bounties',
    party: 'system',
    from: ['OPEN'],
    to: 'JUDGING',
    when: (m, now) =>
      bountyOnly(m) ??
      (now < m.deadline
        ? 'The bounty is still taking entries'
        : m.entryCount === 0
          ? 'No entries to judge'
          : undefined),
    effects: ['openJudging'],
    webhook: 'mission.judging',
  },
  lapse: {
    topic: 'Bounties',
    party: 'system',
    from: ['OPEN'],
    to: 'CANCELLED',
    when: (m, now) =>
      bountyOnly(m) ??
      (now < m.deadline
        ? 'The bounty is still taking entries'
        : m.entryCount > 0
          ? 'The bounty has entries'
          : undefined),
    effects: ['refund'],
    event: 'lapsed',
    webhook: 'mission.cancelled',
  },
  award: {
    topic: 'Bounties',
    party: 'owner',
    from: ['JUDGING'],
    to: 'AWARDED',
    when: bountyOnly,
    until: untilReviewEnds('The judging window has closed; the operator awards it'),
    effects: ['recordAward'],
    webhook: 'mission.awarded',
  },
  // No award in the judging window: the client cannot sit on the entries; the operator awards.
  escalate: {
    topic: 'Bounties',
    party: 'system',
    from: ['JUDGING'],
    to: 'DISPUTED',
    when: (m, now) => bountyOnly(m) ?? (reviewOver(m, now) ? undefined : 'The judging window is still open'),
    effects: [],
    event: 'escalated',
    webhook: 'mission.disputed',
  },
  contestAward: {
    topic: 'Bounties',
    party: 'entrant',
    from: ['AWARDED'],
    to: 'DISPUTED',
    when: bountyOnly,
    until: untilReviewEnds('The contest window has closed'),
    effects: ['recordAwardContest'],
    event: 'contest',
    webhook: 'mission.disputed',
  },
  finalize: {
    topic: 'Bounties',
    party: 'system',
    from: ['AWARDED'],
    to: 'COMPLETED',
    when: (m, now) => bountyOnly(m) ?? (reviewOver(m, now) ? undefined : 'Entrants may still contest the award'),
    effects: ['releaseSplit'],
    webhook: 'mission.completed',
  },
  resolveAward: {
    topic: 'Bounties',
    party: 'operator',
    from: ['DISPUTED'],
    to: 'COMPLETED',
    when: bountyOnly,
    effects: ['recordAward', 'releaseSplit'],
    webhook: 'mission.completed',
  },
  resolveCancel: {
    party: 'operator',
    from: ['DISPUTED'],
    to: 'CANCELLED',
    effects: ['refund'],
    webhook: 'mission.cancelled',
  },
  // docs/api.md#milestones: the milestone at hand of a milestone mission, each with its own submission, review
  // window, contests (MAX_CONTESTS each), approval on silence and dispute; the routes pick these rows for such a
  // mission (lib/marketplace/mission-actions.ts). The event log names them as the mission's own.
  submitMilestone: {
    party: 'assignee',
    from: ['ACCEPTED', 'CONTESTED'],
    to: 'SUBMITTED',
    when: milestonesOnly,
    effects: ['recordSubmission', 'recordMilestone'],
    event: 'submit',
    webhook: 'mission.submitted',
  },
  approveMilestone: {
    party: 'owner',
    from: ['SUBMITTED'],
    to: nextMilestone,
    when: milestonesOnly,
    effects: ['releaseMilestone'],
    event: 'approve',
    webhook: milestoneApproved,
  },
  expireMilestone: {
    party: 'system',
    from: ['SUBMITTED'],
    to: nextMilestone,
    when: (m, now) => milestonesOnly(m) ?? (reviewOver(m, now) ? undefined : 'The review window is still open'),
    effects: ['releaseMilestone'],
    event: 'expire',
    webhook: milestoneApproved,
  },
  contestMilestone: {
    party: 'owner',
    from: ['SUBMITTED'],
    to: {
      among: ['CONTESTED', 'DISPUTED'],
      pick: (m, rules) => ((m.milestoneContestCount ?? 0) >= rules.maxContests ? 'DISPUTED' : 'CONTESTED'),
    },
    when: milestonesOnly,
    until: untilReviewEnds('The review window has closed'),
    effects: ['recordContest', 'recordMilestone'],
    event: 'contest',
    webhook: (to) => (to === 'DISPUTED' ? 'mission.disputed' : 'mission.contested'),
  },
  // The operator's COMPLETED on a disputed milestone approves that one; the mission goes on to the next.
  resolveMilestone: {
    party: 'operator',
    from: ['DISPUTED'],
    to: nextMilestone,
    when: milestonesOnly,
    effects: ['releaseMilestone'],
    event: 'resolveComplete',
    webhook: milestoneApproved,
  },
  // docs/api.md#split-verdicts: the operator gives the agent part of the reward and the client the rest (settle).
  resolveSplit: {
    party: 'operator',
    from: ['DISPUTED'],
    to: 'COMPLETED',
    when: singleAgent,
    effects: ['settle'],
    webhook: 'mission.completed',
  },
  // docs/api.md#settlement-offers: the other party accepted the pending offer (checked by the action's gate):
  // part to the agent and the rest refunded, in one settle; with nothing to the agent, a refund.
  settleByAgreement: {
    party: 'participant',
    from: ['SUBMITTED', 'CONTESTED', 'DISPUTED'],
    to: 'COMPLETED',
    when: singleAgent,
    effects: ['settle'],
    event: 'settled',
    webhook: 'mission.completed',
  },
  refundByAgreement: {
    party: 'participant',
    from: ['SUBMITTED', 'CONTESTED', 'DISPUTED'],
    to: 'CANCELLED',
    when: singleAgent,
    effects: ['settle'],
    event: 'settled',
    webhook: 'mission.cancelled',
  },
} as const satisfies Record<string, Transition>;

export type Action = keyof typeof TRANSITIONS;

/** The state the transition takes this mission to. */
export const targetOf = (transition: Transition, m: MissionFacts, rules: MissionRules): MissionStatus =>
  typeof transition.to === 'string' ? transition.to : transition.to.pick(m, rules);

/** Every state the transition can reach. */
export const targetsOf = (transition: Transition): readonly MissionStatus[] =>
  typeof transition.to === 'string' ? [transition.to] : transition.to.among;

/** The webhook a transition that reached `to` raises, if any. */
export function webhookOf(transition: Transition, to: MissionStatus): WebhookEvent | undefined {
  return typeof transition.webhook === 'function' ? transition.webhook(to) : transition.webhook;
}

/**
 * What time alone does to the mission now, if anything: a review window over completes a
 * submission; a bounty's deadline closes it (judge or lapse), its judging window over escalates
 * it, its contest window over completes it. Run before any other action and on every read.
 */
export function dueAction(
  m: Pick<MissionFacts, 'status' | 'deadline' | 'reviewDeadline' | 'assignmentMode' | 'entryCount' | 'milestoneCount'>,
  now: Date,
): Action | undefined {
  if (m.status === 'SUBMITTED')
    return reviewOver(m, now) ? (hasMilestones(m) ? 'expireMilestone' : 'expire') : undefined;
  if (!isBounty(m)) return undefined;
  if (m.status === 'OPEN') return now < m.deadline ? undefined : m.entryCount > 0 ? 'judge' : 'lapse';
  if (m.status === 'JUDGING') return reviewOver(m, now) ? 'escalate' : undefined;
  if (m.status === 'AWARDED') return reviewOver(m, now) ? 'finalize' : undefined;
  return undefined;
}

/**
 * When time alone next moves the mission (dueAction's instant), or null: every action allowed now
 * stops being allowed then at the latest, since the state it is allowed from is gone.
 */
export function dueAt(
  m: Pick<MissionFacts, 'status' | 'deadline' | 'reviewDeadline' | 'assignmentMode' | 'entryCount'>,
): Date | null {
  if (m.status === 'SUBMITTED') return m.reviewDeadline;
  if (!isBounty(m)) return null;
  if (m.status === 'OPEN') return m.deadline;
  if (m.status === 'JUDGING' || m.status === 'AWARDED') return m.reviewDeadline;
  return null;
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
    case 'participant':
      return viewer.kind === 'user' && (viewer.id === m.clientId || (m.agentId !== null && viewer.id === m.agentId));
    case 'agent':
      // docs/api.md#direct-missions: a DIRECT mission has one agent who may take it.
      if (m.directAgentId) return viewer.kind === 'user' && viewer.id === m.directAgentId;
      return viewer.kind === 'user' && viewer.role === 'AGENT' && viewer.id !== m.clientId;
    case 'named':
      return viewer.kind === 'user' && !!m.directAgentId && viewer.id === m.directAgentId;
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
  const until = transition.until?.at(m, rules);
  if (until && now >= until) return { ok: false, status: 409, message: transition.until!.refusal(m) };
  const wait = transition.cooldown?.(m, now) ?? 0;
  if (wait > 0)
    return { ok: false, status: 429, message: `Too many requests: ${action} again in ${wait} s`, retryAfter: wait };
  return { ok: true, from: m.status, to: targetOf(transition, m, rules), transition };
}

function forbiddenMessage(party: Party): string {
  if (party === 'owner') return "Only the mission's owner may do this";
  if (party === 'assignee') return "Only the mission's assigned agent may do this";
  if (party === 'participant') return "Only the mission's owner or its assigned agent may do this";
  if (party === 'agent') return 'Only an agent other than the owner may do this';
  if (party === 'entrant') return 'Only an agent who entered the bounty may do this';
  if (party === 'named') return 'Only the agent this mission is offered to may do this';
  return 'Not allowed';
}
