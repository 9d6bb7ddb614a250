import { jsonText, route } from '@/lib/http/route';
import { sendQueuedWebhooks } from '@/lib/webhooks';
import { contestMission, contestSchema, missionSchema, precheck, viewerOf } from '@/lib/missions';
import { withRequestBody } from '@/lib/uploads/request-body';
import { otherMethods } from '@/lib/http/methods';
import { idSchema } from '@/lib/fields';

// The owner refuses the submission: `reason`, optional evidence `files`.
export const POST = route(
  {
    after: sendQueuedWebhooks,
    auth: 'user',
    scope: 'missions:post',
    limit: 'write',
    params: { id: idSchema },
    doc: {
      tag: 'Missions',
      summary: 'Refuse a delivery: reason and evidence → CONTESTED or DISPUTED',
      body: contestSchema,
      multipart: true,
      response: missionSchema,
      errors: [404, 409, 413, 415],
    },
  },
  async ({ request, params, caller, cfg, db }) => {
    const viewer = viewerOf(caller);
    await precheck(await db(), cfg, 'contest', params.id, viewer, new Date());
    return withRequestBody(request.body, request.headers, async (body) =>
      jsonText(await contestMission(await db(), cfg, params.id, viewer, body, new Date())),
    );
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
