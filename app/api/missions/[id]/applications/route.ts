import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { applicationListSchema, listApplications, pageQuerySchema } from '@/lib/marketplace';
import { viewerOf } from '@/lib/missions';
import { idSchema } from '@/lib/fields';

// The owner reads the current round's applications, oldest first, a page at a time.
export const GET = route(
  {
    auth: 'user',
    scope: 'missions:read',
    query: pageQuerySchema,
    params: { id: idSchema },
    doc: {
      tag: 'Marketplace',
      summary: "The current round's applications (the owner's), oldest first",
      response: applicationListSchema,
      errors: [403, 404],
    },
  },
  async ({ params, caller, query, db }) => json(await listApplications(await db(), params.id, viewerOf(caller), query)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
