// What a settlement says of an agent, as ERC-8004 feedback (docs/api.md#erc-8004-feedback): one value
// per outcome, valueDecimals 0, tag1 `taskmarket`, tag2 the outcome.

export const FEEDBACK_TAG = 'taskmarket';

export const OUTCOME_VALUES = {
  /** Approved by its client, never contested. */
  approved: 100,
  /** The review window ran out without a word from the client (silence is approval), never contested. */
  'auto-approved': 100,
  /** Completed after a contest: the agent delivered again and was approved, or the operator resolved for it. */
  'contest-won': 60,
  /** The operator resolved the dispute against the agent: the reward went back to the client. */
  'resolved-against': 0,
  /** A bounty place awarded (each winner, whether the client or the operator awarded it). */
  'bounty-award': 100,
  /**
   * Settled in part: by the parties' agreement or the operator's split verdict (docs/api.md#split-feedback), or
   * a milestone mission ended with part of its reward released (docs/api.md#milestones). Its value is not this
   * one but the percent of the reward released to the agent (partialValue).
   */
  partial: 0,
} as const;

export type Outcome = keyof typeof OUTCOME_VALUES;

/**
 * The outcome a mission's settling transition gives its agent, or undefined when it settles nothing
 * about an agent. `contested`: the mission was contested at least once. Bounty places are `bounty-award`
 * for each winner (lib/erc8004/enqueue.ts reads them).
 */
export function outcomeOf(action: string, contested: boolean): Outcome | undefined {
  // docs/api.md#checked-criteria: an approval on passing checks is the client's own, given in advance.
  if (action === 'approve' || action === 'approveOnChecks') return contested ? 'contest-won' : 'approved';
  if (action === 'expire') return contested ? 'contest-won' : 'auto-approved';
  if (action === 'resolveComplete') return 'contest-won';
  if (action === 'resolveCancel') return 'resolved-against';
  if (action === 'finalize' || action === 'resolveAward') return 'bounty-award';
  if (action === 'settleByAgreement' || action === 'refundByAgreement' || action === 'resolveSplit') return 'partial';
  return undefined;
}

/** docs/api.md#split-feedback: the percent of the reward the agent was released, rounded down (0–100). */
export function partialValue(agentAmount: bigint, reward: bigint): number {
  return reward === 0n ? 0 : Number((agentAmount * 100n) / reward);
}

/**
 * docs/api.md#milestones: a milestone mission's one feedback, when it ends — from what its milestones released:
 * everything `approved` (100), part of it `partial` with the percent released, nothing after the operator's
 * resolve `resolved-against` (0). A reclaim, or a cancel before any release, says nothing about the agent.
 */
export function milestonesOutcome(
  action: string,
  status: string,
  released: bigint,
  reward: bigint,
): { outcome: Outcome; value: number } | undefined {
  if (action === 'reclaim' || reward === 0n) return undefined;
  if (status === 'COMPLETED') return { outcome: 'approved', value: 100 };
  if (status !== 'CANCELLED') return undefined;
  if (released === 0n) return action === 'resolveCancel' ? { outcome: 'resolved-against', value: 0 } : undefined;
  return { outcome: 'partial', value: partialValue(released, reward) };
}

/** docs/api.md#client-feedback: tag1 of what a settlement says of its client (a client linked to an identity). */
export const CLIENT_FEEDBACK_TAG = 'client';

export const CLIENT_OUTCOME_VALUES = {
  /** The client approved the delivery (after a contest too: it paid in the end). */
  paid: 100,
  /** The client let the review window run out: paid, without a word. */
  'auto-approved': 70,
  /** The operator resolved the client's dispute for it: the reward came back. */
  'contest-upheld': 80,
  /** The operator resolved the client's dispute for the agent: the contest was wrong. */
  'contest-overturned': 0,
} as const;

export type ClientOutcome = keyof typeof CLIENT_OUTCOME_VALUES;

/** What a mission's settling transition says of its client, or undefined (bounties: none). */
export function clientOutcomeOf(action: string): ClientOutcome | undefined {
  if (action === 'approve') return 'paid';
  if (action === 'expire') return 'auto-approved';
  if (action === 'resolveCancel') return 'contest-upheld';
  if (action === 'resolveComplete') return 'contest-overturned';
  return undefined;
}
