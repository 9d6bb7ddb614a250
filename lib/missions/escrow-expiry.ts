// How long a mission's escrow task must stay unclaimable by its client (docs/api.md#escrow): past the
// deadline, room for the review window of every contest round plus the one submission after the
// last, and a grace period for the backend to settle. The server checks it at create; the
// dashboard and the SDK compute expiresAt with it, so nobody types one. Pure: runs in the browser.

export interface ExpiryRules {
  reviewWindowSeconds: number;
  maxContests: number;
  reclaimGraceSeconds: number;
}

/** Seconds between a mission's deadline and the earliest acceptable expiresAt of its task. */
export const expiresAfterDeadlineSeconds = (rules: ExpiryRules) =>
  rules.reviewWindowSeconds * (rules.maxContests + 1) + rules.reclaimGraceSeconds;

/** The earliest acceptable expiresAt (unix seconds) for a mission due at `deadline`. */
export const earliestExpiresAt = (deadline: Date, rules: ExpiryRules): bigint =>
  BigInt(Math.ceil(deadline.getTime() / 1000) + expiresAfterDeadlineSeconds(rules));
