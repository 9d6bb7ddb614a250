import { json, route } from '@/lib/http/route';
import { publicStats, publicStatsSchema } from '@/lib/public';
import { otherMethods } from '@/lib/http/methods';

// Cached up to 30 s in this instance; shared caches may keep it as long.
export const GET = route(
  { doc: { tag: 'Public', summary: 'Marketplace totals (cached up to 30 s)', response: publicStatsSchema } },
  async ({ db }) =>
    json(await publicStats(await db(), new Date()), { headers: { 'Cache-Control': 'public, max-age=30' } }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
