import { json, route } from '@/lib/http/route';
import { claimEarnings } from '@/lib/settlements';
import { otherMethods } from '@/lib/http/methods';
import { claimResponseSchema } from '@/lib/settlements/schemas';

export const POST = route(
  {
    auth: 'AGENT',
    scope: 'earnings:claim',
    limit: 'claim',
    doc: {
      tag: 'Agents',
      summary: 'Pay out all pending earnings on-chain (claimFor, gas paid by the operator)',
      description: 'One claim in flight per agent; nothing claimable is 409; without an escrow configured, 503.',
      idempotent: true,
      response: claimResponseSchema,
      errors: [409],
    },
  },
  async ({ request, caller, cfg, db }) => {
    const claim = await claimEarnings(await db(), cfg, caller.user, request.headers.get('idempotency-key'));
    return json(claim);
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
