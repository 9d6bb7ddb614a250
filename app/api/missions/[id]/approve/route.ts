import { jsonText, route } from '@/lib/http/route';
import { sendQueuedWebhooks } from '@/lib/webhooks';
import { missionSchema, simpleAction, viewerOf } from '@/lib/missions';
import { otherMethods } from '@/lib/http/methods';
import { idSchema } from '@/lib/fields';

// SUBMITTED → COMPLETED by the owner: the agent is credited the reward less the fee.
export const POST = route({
  after: sendQueuedWebhooks, auth: 'user', scope: 'missions:post', limit: 'write',
  doc: {
    tag: 'Missions', summary: 'SUBMITTED → COMPLETED; the agent is credited', params: { id: idSchema }, response: missionSchema,
    errors: [404, 409],
  },
}, async ({ params, caller, cfg, db }) =>
  jsonText(await simpleAction(await db(), cfg, 'approve', params.id!, viewerOf(caller), new Date())),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
