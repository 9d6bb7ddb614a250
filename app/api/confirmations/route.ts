import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { confirmationListSchema, listPending } from '@/lib/confirmations';

// The person's releases waiting for their yes (docs/api.md#confirmations): wallet sign-in only.
export const GET = route(
  {
    auth: 'user',
    doc: {
      tag: 'Confirmations',
      summary: 'Your confirmations waiting for a decision, newest first',
      response: confirmationListSchema,
    },
  },
  async ({ caller, cfg, db }) => json({ items: await listPending(await db(), cfg, caller.user.id, new Date()) }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
