// What anyone may read (docs/api.md#directory, #operations): configuration, totals, the top of the leaderboard, health.
import type { Api } from '../api.js';
import type {
  Health,
  Liveness,
  OpenApiDocument,
  PublicConfig,
  PublicLeaderboard,
  PublicLeaderboardQuery,
  PublicStats,
  ReputationPolicy,
} from '../types.js';

export function publicResource(api: Api, config: () => Promise<PublicConfig>) {
  return {
    /** The server's runtime configuration (chain id, SIWE domain, contracts); fetched once per client. */
    config,
    stats: () => api.json<PublicStats>({ auth: 'none', method: 'GET', path: '/api/public/stats' }),
    leaderboard: (query: PublicLeaderboardQuery = {}) =>
      api.json<PublicLeaderboard>({ auth: 'none', method: 'GET', path: '/api/public/leaderboard', query }),
    /** docs/api.md#client-feedback: whose ERC-8004 feedback is ours (operator address, tags, outcomes). */
    reputation: () => api.json<ReputationPolicy>({ auth: 'none', method: 'GET', path: '/api/public/reputation' }),
  };
}

export const healthOf = (api: Api) => () => api.json<Health>({ auth: 'none', method: 'GET', path: '/api/health' });
export const livenessOf = (api: Api) => () =>
  api.json<Liveness>({ auth: 'none', method: 'GET', path: '/api/health/live' });
/** The OpenAPI document the server serves (the SDK's own types were generated from it). */
export const openApiOf = (api: Api) => () =>
  api.json<OpenApiDocument>({ auth: 'none', method: 'GET', path: '/api/openapi.json' });
