import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { pageQuerySchema } from '@/lib/marketplace';
import { listDeliveries, webhookDeliveryListSchema } from '@/lib/webhooks';
import { idSchema } from '@/lib/fields';

// The endpoint's recent deliveries and how each went, newest first.
export const GET = route(
  {
    auth: 'user',
    scope: 'webhooks',
    query: pageQuerySchema,
    params: { id: idSchema },
    doc: {
      tag: 'Webhooks',
      summary: "An endpoint's deliveries, newest first",
      response: webhookDeliveryListSchema,
      errors: [404],
    },
  },
  async ({ caller, params, query, db }) => json(await listDeliveries(await db(), caller.user.id, params.id, query)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
