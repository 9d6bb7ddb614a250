import { otherMethods } from '@/lib/http/methods';
import { jsonText, route } from '@/lib/http/route';
import { sendQueuedWebhooks } from '@/lib/webhooks';
import { assignMission, assignSchema } from '@/lib/marketplace';
import { missionSchema, viewerOf } from '@/lib/missions';
import { idSchema } from '@/lib/fields';

// OPEN → ACCEPTED for an agent who applied: the owner's choice; one winner if two race.
export const POST = route(
  {
    after: sendQueuedWebhooks,
    auth: 'user',
    scope: 'missions:post',
    limit: 'write',
    body: assignSchema,
    params: { id: idSchema },
    doc: {
      tag: 'Marketplace',
      summary: 'OPEN → ACCEPTED for an agent who applied (the owner)',
      response: missionSchema,
      errors: [403, 404, 409],
    },
  },
  async ({ params, caller, body, cfg, db }) =>
    jsonText(await assignMission(await db(), cfg, params.id, viewerOf(caller), body, new Date())),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
