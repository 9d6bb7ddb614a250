import { json, route } from '@/lib/http/route';
import { sendQueuedWebhooks } from '@/lib/webhooks';
import { claimEarnings } from '@/lib/settlements';
import { otherMethods } from '@/lib/http/methods';

export const POST = route({ after: sendQueuedWebhooks, auth: 'AGENT', scope: 'earnings:claim', limit: 'claim' }, async ({ request, caller, cfg, db }) => {
  const claim = await claimEarnings(await db(), cfg, caller.user, request.headers.get('idempotency-key'));
  return json(claim);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
