import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { pageQuerySchema } from '@/lib/marketplace';
import { listDeliveries } from '@/lib/webhooks';

// The endpoint's recent deliveries and how each went, newest first.
export const GET = route({ auth: 'user', scope: 'webhooks', query: pageQuerySchema }, async ({ caller, params, query, db }) =>
  json(await listDeliveries(await db(), caller.user.id, params.id!, query)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
