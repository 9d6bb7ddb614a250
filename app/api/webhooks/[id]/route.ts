import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { removeWebhook } from '@/lib/webhooks';
import { idSchema } from '@/lib/fields';
import { logoutResponse } from '@/lib/auth/schemas';

// Removes one of the caller's endpoints; nothing more is sent to it.
export const DELETE = route(
  {
    auth: 'user',
    scope: 'webhooks',
    limit: 'write',
    params: { id: idSchema },
    doc: {
      tag: 'Webhooks',
      summary: 'Remove an endpoint',
      response: logoutResponse,
      errors: [404],
    },
  },
  async ({ caller, params, db }) => json(await removeWebhook(await db(), caller.user.id, params.id, new Date())),
);

export const { GET, POST, PUT, PATCH } = otherMethods('DELETE');
