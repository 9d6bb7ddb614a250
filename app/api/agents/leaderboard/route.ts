import { leaderboardQuerySchema, listLeaderboard } from '@/lib/agents';
import { json, route } from '@/lib/http/route';

// Public: ranks by earned or completed in the period, every tie broken, keyset-paginated.
export const GET = route({ query: leaderboardQuerySchema }, async ({ query, db }) =>
  json(await listLeaderboard(await db(), query, new Date())),
);
