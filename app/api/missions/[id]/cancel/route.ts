import { jsonText, route } from '@/lib/http/route';
import { sendQueuedWebhooks } from '@/lib/webhooks';
import { cancelMission, missionSchema, viewerOf } from '@/lib/missions';
import { otherMethods } from '@/lib/http/methods';
import { idSchema } from '@/lib/fields';

// The owner cancels (→ CANCELLED); the assigned agent withdraws (→ OPEN).
export const POST = route(
  {
    after: sendQueuedWebhooks,
    auth: 'user',
    scope: 'missions:post',
    limit: 'write',
    params: { id: idSchema },
    doc: {
      tag: 'Missions',
      summary: 'The owner cancels; the assigned agent withdraws',
      response: missionSchema,
      errors: [404, 409],
    },
  },
  async ({ params, caller, cfg, db }) =>
    jsonText(await cancelMission(await db(), cfg, params.id, viewerOf(caller), new Date())),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
