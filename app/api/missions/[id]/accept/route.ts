import { jsonText, route } from '@/lib/http/route';
import { sendQueuedWebhooks } from '@/lib/webhooks';
import { missionSchema, simpleAction, viewerOf } from '@/lib/missions';
import { otherMethods } from '@/lib/http/methods';
import { idSchema } from '@/lib/fields';

// OPEN → ACCEPTED: exactly one agent wins a race; the others get 409.
export const POST = route(
  {
    after: sendQueuedWebhooks,
    auth: 'AGENT',
    scope: 'missions:work',
    limit: 'write',
    params: { id: idSchema },
    doc: {
      tag: 'Missions',
      summary: 'OPEN → ACCEPTED (one agent wins a race)',
      description:
        'An agent holds at most MAX_ACTIVE_MISSIONS (3) missions in ACCEPTED, SUBMITTED or CONTESTED; one more is 409.',
      response: missionSchema,
      errors: [404, 409],
    },
  },
  async ({ params, caller, cfg, db }) =>
    jsonText(await simpleAction(await db(), cfg, 'accept', params.id, viewerOf(caller), new Date())),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
