// The endpoints `npm run bench` measures, as scenarios against one instance: `npm run bench` adds
// each one's floor and target, `npm run bench:builds` measures the main ones on two builds.
import type { Scenario } from './measure';
import { toolCall } from './mcp';
import { topUp } from './sign-ins';

export interface Callers {
  /** The instance: verify's single-use bodies are signed over nonces it issued. */
  base: string;
  /** Its SIWE_DOMAIN. */
  domain: string;
  /** Verify bodies kept unused before each measurement of verify (nonces live five minutes: signed just before). */
  verifiesPerRound: number;
  /** The address nonces are asked for. */
  address: string;
  /** A signed-in agent's token. */
  agentToken: string;
  /** A seeded client's token: its own missions fill `mine=client` and the analytics. */
  clientToken: string;
  /** The same client's OAuth access token and personal access token (missions:read, missions:work). */
  oauthToken: string;
  personalToken: string;
  /** An OPEN mission: public, so any caller reads it. */
  missionId: string;
}

const yearAgo = () => new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);

export function endpointScenarios(callers: Callers) {
  const agent = { authorization: `Bearer ${callers.agentToken}` };
  const client = { authorization: `Bearer ${callers.clientToken}` };
  const oauth = { authorization: `Bearer ${callers.oauthToken}` };
  return {
    nonce: {
      name: 'POST /api/auth/nonce',
      method: 'POST',
      path: '/api/auth/nonce',
      body: JSON.stringify({ address: callers.address }),
    },
    verify: {
      name: 'POST /api/auth/verify',
      method: 'POST',
      path: '/api/auth/verify',
      bodies: [] as string[],
      // `this`: run.ts measures a copy with a floor added, and measure.ts counts used bodies per object.
      prepare() {
        return topUp(this as Scenario & { bodies: string[] }, callers.base, callers.verifiesPerRound, {
          noncePath: '/api/auth/nonce',
          domain: callers.domain,
        });
      },
    },
    me: { name: 'GET /api/auth/me', path: '/api/auth/me', headers: agent },
    // Delegated tokens: the grant check is on each one's path (docs/api.md#grant-bound-tokens).
    meOAuth: { name: 'GET /api/auth/me (OAuth access token)', path: '/api/auth/me', headers: oauth },
    mePersonal: {
      name: 'GET /api/auth/me (personal access token)',
      path: '/api/auth/me',
      headers: { authorization: `Bearer ${callers.personalToken}` },
    },
    mineOAuth: {
      name: 'GET /api/missions?mine=client (OAuth access token)',
      path: '/api/missions?mine=client',
      headers: oauth,
    },
    mcpOAuth: toolCall('OAuth access token', oauth.authorization),
    registerAgain: {
      name: 'POST /api/auth/register-agent (again)',
      method: 'POST',
      path: '/api/auth/register-agent',
      headers: agent,
    },
    health: { name: 'GET /api/health', path: '/api/health' },
    missions: { name: 'GET /api/missions (default sort)', path: '/api/missions' },
    byReward: { name: 'GET /api/missions?category=code&sort=reward', path: '/api/missions?category=code&sort=reward' },
    search: { name: 'GET /api/missions?q=translate', path: '/api/missions?q=translate' },
    mine: { name: 'GET /api/missions?mine=client', path: '/api/missions?mine=client', headers: client },
    detail: { name: 'GET /api/missions/[id] (an open mission)', path: `/api/missions/${callers.missionId}` },
    leaderboard: { name: 'GET /api/agents/leaderboard', path: '/api/agents/leaderboard' },
    // docs/api.md#offerings: the search over 100,000 active offerings, by each sort and a text query.
    offerings: { name: 'GET /api/offerings (newest)', path: '/api/offerings' },
    offeringsByPrice: {
      name: 'GET /api/offerings?category=code&sort=price',
      path: '/api/offerings?category=code&sort=price',
    },
    offeringsSearch: {
      name: 'GET /api/offerings?q=translate&maxPrice=50000000',
      path: '/api/offerings?q=translate&maxPrice=50000000',
    },
    offeringsByRating: { name: 'GET /api/offerings?sort=rating', path: '/api/offerings?sort=rating' },
    leaderboard30d: {
      name: 'GET /api/agents/leaderboard?period=30d&sort=completed',
      path: '/api/agents/leaderboard?period=30d&sort=completed',
    },
    publicStats: { name: 'GET /api/public/stats', path: '/api/public/stats' },
    publicLeaderboard: { name: 'GET /api/public/leaderboard', path: '/api/public/leaderboard' },
    analytics: { name: 'GET /api/enterprise/analytics (30 days)', path: '/api/enterprise/analytics', headers: client },
    analyticsYear: {
      name: 'GET /api/enterprise/analytics (a year, weekly)',
      path: `/api/enterprise/analytics?from=${yearAgo()}&interval=week`,
      headers: client,
    },
  } satisfies Record<string, Scenario>;
}

export type Endpoint = keyof ReturnType<typeof endpointScenarios>;
