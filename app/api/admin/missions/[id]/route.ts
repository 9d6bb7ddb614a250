// The operator's read of one mission (ADMIN_TOKEN), all of it: what a dispute is decided on
// (docs/api.md#operator-missions) — the criteria, the agent's self-check, the contests, the files, the times.
import { jsonText, route } from '@/lib/http/route';
import { getMissionOrThrow } from '@/lib/board';
import { missionSchema } from '@/lib/missions';
import { OPERATOR } from '@/lib/missions/visibility';
import { otherMethods } from '@/lib/http/methods';
import { idSchema } from '@/lib/fields';

// The same mission view as GET /api/missions/{id}, seen as the operator: the work shown whatever the status.
export const GET = route(
  {
    operator: 'admin',
    params: { id: idSchema },
    doc: {
      tag: 'Operations',
      summary: 'One mission with its work, for the operator',
      response: missionSchema,
      errors: [404],
    },
  },
  async ({ params, cfg, db }) => jsonText(await getMissionOrThrow(await db(), cfg, params.id, OPERATOR, new Date())),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
