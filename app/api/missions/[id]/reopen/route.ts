import { otherMethods } from '@/lib/http/methods';
import { jsonText, route } from '@/lib/http/route';
import { sendQueuedWebhooks } from '@/lib/webhooks';
import { missionSchema, simpleAction, viewerOf } from '@/lib/missions';
import { idSchema } from '@/lib/fields';

// ACCEPTED → OPEN by the owner, once the agent has gone ACCEPT_WINDOW_SECONDS without delivering.
export const POST = route(
  {
    after: sendQueuedWebhooks,
    auth: 'user',
    scope: 'missions:post',
    limit: 'write',
    params: { id: idSchema },
    doc: {
      tag: 'Missions',
      summary: 'ACCEPTED → OPEN by the owner after ACCEPT_WINDOW_SECONDS without a submission',
      response: missionSchema,
      errors: [403, 404, 409],
    },
  },
  async ({ params, caller, cfg, db }) =>
    jsonText(await simpleAction(await db(), cfg, 'reopen', params.id, viewerOf(caller), new Date())),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
