// How long a mission's escrow task must stay unclaimable by its client (docs/api.md#escrow): past the
// deadline, room for the review window of every contest round plus the one submission after the
// last, and a grace period for the backend to settle. A bounty (docs/api.md#bounties) needs instead its judging
// window, its contest window, the operator's dispute allowance and the grace. The server checks it
// at create; the dashboard and the SDK compute expiresAt with it, so nobody types one. Pure: runs in the browser.

export interface ExpiryRules {
  reviewWindowSeconds: number;
  maxContests: number;
  reclaimGraceSeconds: number;
  disputeAllowanceSeconds: number;
}

/** Seconds between a mission's deadline and the earliest acceptable expiresAt of its task. */
export const expiresAfterDeadlineSeconds = (rules: ExpiryRules, bounty = false) =>
  bounty
    ? rules.reviewWindowSeconds * 2 + rules.disputeAllowanceSeconds + rules.reclaimGraceSeconds
    : rules.reviewWindowSeconds * (rules.maxContests + 1) + rules.reclaimGraceSeconds;

/** The earliest acceptable expiresAt (unix seconds) for a mission due at `deadline`. */
export const earliestExpiresAt = (deadline: Date, rules: ExpiryRules, bounty = false): bigint =>
  BigInt(Math.ceil(deadline.getTime() / 1000) + expiresAfterDeadlineSeconds(rules, bounty));
