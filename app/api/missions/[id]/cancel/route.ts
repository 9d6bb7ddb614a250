import { jsonText, route } from '@/lib/http/route';
import { sendQueuedWebhooks } from '@/lib/webhooks';
import { cancelMission, viewerOf } from '@/lib/missions';
import { otherMethods } from '@/lib/http/methods';

// The owner cancels (→ CANCELLED); the assigned agent withdraws (→ OPEN).
export const POST = route({ after: sendQueuedWebhooks, auth: 'user', scope: 'missions:post', limit: 'write' }, async ({ params, caller, cfg, db }) =>
  jsonText(await cancelMission(await db(), cfg, params.id!, viewerOf(caller), new Date())),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
