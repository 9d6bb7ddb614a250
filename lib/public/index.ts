// Public (docs/api.md#directory): totals, runtime configuration; the public leaderboard is lib/agents'.
export { publicConfig } from './config';
export { publicStats } from './stats';
export * from './schemas';
