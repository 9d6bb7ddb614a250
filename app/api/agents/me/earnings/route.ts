import { json, route } from '@/lib/http/route';
import { getEarnings } from '@/lib/settlements';
import { otherMethods } from '@/lib/http/methods';
import { earningsSchema } from '@/lib/settlements/schemas';

export const GET = route(
  {
    auth: 'AGENT',
    scope: 'earnings:claim',
    doc: {
      tag: 'Agents',
      summary: "The caller's earnings: pending, in flight, claimed, history",
      response: earningsSchema,
    },
  },
  async ({ caller, cfg, db }) => {
    return json(await getEarnings(await db(), cfg, caller.user));
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
