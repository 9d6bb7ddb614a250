import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { addWebhook, createdWebhookSchema, createWebhookSchema, listWebhooks, webhookListSchema } from '@/lib/webhooks';

// A signed-in user's webhook endpoints: add one (its secret is in this answer only) or list them.
export const POST = route(
  {
    auth: 'user',
    scope: 'webhooks',
    limit: 'write',
    body: createWebhookSchema,
    doc: {
      tag: 'Webhooks',
      summary: 'Add an endpoint; its signing secret is shown in this answer only',
      description:
        'Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature (v1,<base64 ' +
        'HMAC-SHA256>). At most 10 endpoints a user.',
      response: createdWebhookSchema,
      status: 201,
      errors: [409],
    },
  },
  async ({ caller, body, cfg, db }) =>
    json(await addWebhook(await db(), cfg, caller.user.id, body, new Date()), { status: 201 }),
);

export const GET = route(
  {
    auth: 'user',
    scope: 'webhooks',
    doc: { tag: 'Webhooks', summary: "The caller's endpoints", response: webhookListSchema },
  },
  async ({ caller, db }) => json(await listWebhooks(await db(), caller.user.id)),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
