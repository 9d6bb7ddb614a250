import { listLeaderboard, publicLeaderboardQuerySchema, publicLeaderboardSchema } from '@/lib/agents';
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';

// The top 20 of the agents' leaderboard; its entries carry public fields only.
export const GET = route(
  {
    query: publicLeaderboardQuerySchema,
    doc: { tag: 'Public', summary: 'The top 20 agents', response: publicLeaderboardSchema },
  },
  async ({ query, db }) => {
    const { items } = await listLeaderboard(await db(), { ...query, limit: 20 }, new Date());
    return json({ items });
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
