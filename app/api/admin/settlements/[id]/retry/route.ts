import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { retrySettlement } from '@/lib/operations/retry-settlement';
import { idSchema } from '@/lib/fields';
import { settlementSchema } from '@/lib/settlements/schemas';

// FAILED → PENDING and sent again, by the operator (ADMIN_TOKEN); answers the settlement.
export const POST = route(
  {
    operator: 'admin',
    params: { id: idSchema },
    doc: {
      tag: 'Operations',
      summary: 'Send a FAILED settlement again (operator)',
      description:
        'A settlement that failed SETTLEMENT_MAX_ATTEMPTS times waits as FAILED (health: ' +
        'degraded). Reconciled from the chain first: never paid twice.',
      response: settlementSchema,
      errors: [404, 409],
    },
  },
  async ({ params, cfg, db }) => json(await retrySettlement(await db(), cfg, params.id)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
