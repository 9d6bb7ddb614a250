import { json, route } from '@/lib/http/route';
import { getEarnings } from '@/lib/settlements';
import { otherMethods } from '@/lib/http/methods';

export const GET = route({ auth: 'AGENT', scope: 'earnings:claim' }, async ({ caller, cfg, db }) => {
  return json(await getEarnings(await db(), cfg, caller.user));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
