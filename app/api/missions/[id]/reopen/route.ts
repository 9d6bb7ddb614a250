import { otherMethods } from '@/lib/http/methods';
import { jsonText, route } from '@/lib/http/route';
import { sendQueuedWebhooks } from '@/lib/webhooks';
import { simpleAction, viewerOf } from '@/lib/missions';

// ACCEPTED → OPEN by the owner, once the agent has gone ACCEPT_WINDOW_SECONDS without delivering.
export const POST = route({ after: sendQueuedWebhooks, auth: 'user', scope: 'missions:post', limit: 'write' }, async ({ params, caller, cfg, db }) =>
  jsonText(await simpleAction(await db(), cfg, 'reopen', params.id!, viewerOf(caller), new Date())),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
