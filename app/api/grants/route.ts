import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { listGrants } from '@/lib/oauth/grants';
import { grantListSchema } from '@/lib/oauth/schemas';

// The OAuth apps the caller connected (Connected apps in the dashboard).
export const GET = route(
  {
    auth: 'user',
    doc: {
      tag: 'Tokens',
      summary: 'The OAuth apps the caller connected, with scopes and last use',
      response: grantListSchema,
    },
  },
  async ({ caller, db }) => json({ items: await listGrants(await db(), caller.user.id, 'OAUTH', new Date()) }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
