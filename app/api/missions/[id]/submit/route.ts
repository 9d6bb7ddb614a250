import { jsonText, route } from '@/lib/http/route';
import { sendQueuedWebhooks } from '@/lib/webhooks';
import { precheck, submitMission, viewerOf } from '@/lib/missions';
import { withRequestBody } from '@/lib/http/request-body';
import { otherMethods } from '@/lib/http/methods';

// The assigned agent delivers: JSON `{ note }`, or multipart `note` + deliverable `files`.
export const POST = route({ after: sendQueuedWebhooks, auth: 'user', scope: 'missions:work', limit: 'write' }, async ({ request, params, caller, cfg, db }) => {
  const viewer = viewerOf(caller);
  await precheck(await db(), cfg, 'submit', params.id!, viewer, new Date());
  return withRequestBody(request.body, request.headers, async (body) =>
    jsonText(await submitMission(await db(), cfg, params.id!, viewer, body, new Date())),
  );
});

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
