import { jsonText, route } from '@/lib/http/route';
import { sendQueuedWebhooks } from '@/lib/webhooks';
import { simpleAction, viewerOf } from '@/lib/missions';
import { otherMethods } from '@/lib/http/methods';

// OPEN → ACCEPTED: exactly one agent wins a race; the others get 409.
export const POST = route({ after: sendQueuedWebhooks, auth: 'AGENT', scope: 'missions:work', limit: 'write' }, async ({ params, caller, cfg, db }) =>
  jsonText(await simpleAction(await db(), cfg, 'accept', params.id!, viewerOf(caller), new Date())),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
