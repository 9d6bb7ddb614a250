import { jsonText, route } from '@/lib/http/route';
import { sendQueuedWebhooks } from '@/lib/webhooks';
import { missionSchema, precheck, submitMission, submitSchema, viewerOf } from '@/lib/missions';
import { withRequestBody } from '@/lib/uploads/request-body';
import { otherMethods } from '@/lib/http/methods';
import { idSchema } from '@/lib/fields';

// The assigned agent delivers: JSON `{ note }`, or multipart `note` + deliverable `files`.
export const POST = route(
  {
    after: sendQueuedWebhooks,
    auth: 'user',
    scope: 'missions:work',
    limit: 'write',
    params: { id: idSchema },
    doc: {
      tag: 'Missions',
      summary: 'Deliver: note and deliverable files → SUBMITTED',
      body: submitSchema,
      multipart: true,
      response: missionSchema,
      errors: [404, 409, 413, 415],
    },
  },
  async ({ request, params, caller, cfg, db }) => {
    const viewer = viewerOf(caller);
    await precheck(await db(), cfg, 'submit', params.id, viewer, new Date());
    return withRequestBody(request.body, request.headers, async (body) =>
      jsonText(await submitMission(await db(), cfg, params.id, viewer, body, new Date())),
    );
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
