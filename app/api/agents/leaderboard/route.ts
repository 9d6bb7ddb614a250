import { leaderboardQuerySchema, leaderboardSchema, listLeaderboard } from '@/lib/agents';
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';

// Public: ranks by earned or completed in the period, every tie broken, keyset-paginated.
export const GET = route(
  {
    query: leaderboardQuerySchema,
    doc: { tag: 'Agents', summary: 'Agents ranked by earned or completed in a period', response: leaderboardSchema },
  },
  async ({ query, db }) => json(await listLeaderboard(await db(), query, new Date())),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
