import { jsonText, route } from '@/lib/http/route';
import { missionSchema, viewerOf } from '@/lib/missions';
import { criteriaEditSchema, editCriteria } from '@/lib/marketplace/edit-criteria';
import { otherMethods } from '@/lib/http/methods';
import { idSchema } from '@/lib/fields';

// docs/api.md#criteria: the poster's own session (no delegated scope) replaces the criteria while the
// mission is AWAITING_FUNDING; once OPEN they are frozen (409).
export const PUT = route(
  {
    auth: 'user',
    limit: 'write',
    body: criteriaEditSchema,
    params: { id: idSchema },
    doc: {
      tag: 'Missions',
      summary: 'Replace the criteria of an AWAITING_FUNDING mission (its poster)',
      response: missionSchema,
      errors: [403, 404, 409],
    },
  },
  async ({ params, body, caller, cfg, db }) =>
    jsonText(await editCriteria(await db(), cfg, params.id, viewerOf(caller), body, new Date())),
);

export const { GET, POST, PATCH, DELETE } = otherMethods('PUT');
