import { jsonText, route } from '@/lib/http/route';
import { sendQueuedWebhooks } from '@/lib/webhooks';
import { contestMission, precheck, viewerOf } from '@/lib/missions';
import { withRequestBody } from '@/lib/http/request-body';
import { otherMethods } from '@/lib/http/methods';

// The owner refuses the submission: `reason`, optional evidence `files`.
export const POST = route({ after: sendQueuedWebhooks, auth: 'user', scope: 'missions:post', limit: 'write' }, async ({ request, params, caller, cfg, db }) => {
  const viewer = viewerOf(caller);
  await precheck(await db(), cfg, 'contest', params.id!, viewer, new Date());
  return withRequestBody(request.body, request.headers, async (body) =>
    jsonText(await contestMission(await db(), cfg, params.id!, viewer, body, new Date())),
  );
});

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
