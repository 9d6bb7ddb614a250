import { jsonText, route } from '@/lib/http/route';
import { getMissionOrThrow } from '@/lib/board';
import { missionSchema, viewerOf } from '@/lib/missions';
import { otherMethods } from '@/lib/http/methods';
import { idSchema } from '@/lib/fields';

// OPEN missions are public; any other is the owner's and the assigned agent's only (404 to the rest).
export const GET = route(
  {
    auth: 'optional',
    scope: 'missions:read',
    params: { id: idSchema },
    doc: {
      tag: 'Missions',
      summary: 'One mission as the caller may see it',
      response: missionSchema,
      errors: [404],
    },
  },
  async ({ params, caller, cfg, db }) =>
    jsonText(await getMissionOrThrow(await db(), cfg, params.id, viewerOf(caller), new Date())),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
