// Public (API.md §8): totals, runtime configuration; the public leaderboard is lib/agents'.
export { publicConfig } from './config';
export { publicStats } from './stats';
export * from './schemas';
