// What anyone may read (API.md §8, §9): configuration, totals, the top of the leaderboard, health.
import type { Api } from '../api.js';
import type { Health, PublicConfig, PublicLeaderboard, PublicLeaderboardQuery, PublicStats } from '../types.js';

export function publicResource(api: Api, config: () => Promise<PublicConfig>) {
  return {
    /** The server's runtime configuration (chain id, SIWE domain, contracts); fetched once per client. */
    config,
    stats: () => api.json<PublicStats>({ auth: 'none', method: 'GET', path: '/api/public/stats' }),
    leaderboard: (query: PublicLeaderboardQuery = {}) => api.json<PublicLeaderboard>({ auth: 'none', method: 'GET', path: '/api/public/leaderboard', query }),
  };
}

export const healthOf = (api: Api) => () => api.json<Health>({ auth: 'none', method: 'GET', path: '/api/health' });
