import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { addWebhook, createWebhookSchema, listWebhooks } from '@/lib/webhooks';

// A signed-in user's webhook endpoints: add one (its secret is in this answer only) or list them.
export const POST = route({ auth: 'user', scope: 'webhooks', limit: 'write', body: createWebhookSchema }, async ({ caller, body, cfg, db }) =>
  json(await addWebhook(await db(), cfg, caller.user.id, body, new Date()), { status: 201 }),
);

export const GET = route({ auth: 'user', scope: 'webhooks' }, async ({ caller, db }) => json(await listWebhooks(await db(), caller.user.id)));

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
