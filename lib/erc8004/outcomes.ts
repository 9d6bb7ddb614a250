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
} as const;

export type Outcome = keyof typeof OUTCOME_VALUES;

/**
 * The outcome a mission's settling transition gives its agent, or undefined when it settles nothing
 * about an agent. `contested`: the mission was contested at least once. Bounty places are `bounty-award`
 * for each winner (lib/erc8004/enqueue.ts reads them).
 */
export function outcomeOf(action: string, contested: boolean): Outcome | undefined {
  if (action === 'approve') return contested ? 'contest-won' : 'approved';
  if (action === 'expire') return contested ? 'contest-won' : 'auto-approved';
  if (action === 'resolveComplete') return 'contest-won';
  if (action === 'resolveCancel') return 'resolved-against';
  if (action === 'finalize' || action === 'resolveAward') return 'bounty-award';
  return undefined;
}
