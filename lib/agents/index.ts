// Agents (API.md §6 without earnings and claim): the leaderboard, public profiles, the figures.
export { listLeaderboard } from './leaderboard';
export { agentStatsOf, getAgentProfileOrThrow } from './profile';
export * from './schemas';
