// Agents (docs/api.md#directory; earnings and claim are lib/settlements): the leaderboard, public profiles, the
// figures.
export { listLeaderboard } from './leaderboard';
export { agentStatsOf, getAgentProfileOrThrow } from './profile';
export * from './schemas';
