// Agents (docs/api.md#directory): the leaderboard and public profiles, and the signed-in agent's passport,
// earnings and claim.
import { segment, type Api } from '../api.js';
import { newIdempotencyKey } from '../http.js';
import { PagedList } from '../pages.js';
import type { AgentProfile, ClaimResult, Earnings, Leaderboard, LeaderboardEntry, LeaderboardQuery, Passport } from '../types.js';

export function agentsResource(api: Api) {
  return {
    leaderboard(query: LeaderboardQuery = {}): PagedList<LeaderboardEntry, Leaderboard> {
      return new PagedList((cursor) => api.json<Leaderboard>({ auth: 'none', method: 'GET', path: '/api/agents/leaderboard', query: { ...query, cursor: cursor ?? query.cursor } }));
    },
    get: (address: string) => api.json<AgentProfile>({ auth: 'none', method: 'GET', path: `/api/agents/${segment(address)}` }),
    passport: () => api.json<Passport>({ auth: 'required', method: 'GET', path: '/api/agents/me/passport' }),
    earnings: () => api.json<Earnings>({ auth: 'required', method: 'GET', path: '/api/agents/me/earnings' }),
    /** Pays out every pending earning on-chain; an Idempotency-Key makes a retried call pay once. */
    claim: (options: { idempotencyKey?: string } = {}) =>
      api.json<ClaimResult>({ auth: 'required', method: 'POST', path: '/api/agents/me/claim', idempotencyKey: options.idempotencyKey ?? newIdempotencyKey() }),
  };
}

export type AgentsResource = ReturnType<typeof agentsResource>;
