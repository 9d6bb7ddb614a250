// successRate = completed ÷ accepted (docs/api.md#directory), where "accepted" counts the missions ever
// assigned to the agent — a withdrawal or a dispute lost still counts as accepted, not completed.
// Over all time, whatever period a leaderboard shows: it is a reputation, not a period figure.

/** The rate to 4 decimals; null before the agent's first accept. */
export function successRate(completed: number, accepted: number): number | null {
  if (accepted === 0) return null;
  return Math.round((completed / accepted) * 10_000) / 10_000;
}
