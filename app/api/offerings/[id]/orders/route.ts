import { createdMissionSchema } from '@/lib/funding';
import { idSchema } from '@/lib/fields';
import { otherMethods } from '@/lib/http/methods';
import { jsonText, route } from '@/lib/http/route';
import { orderSchema, placeOrder } from '@/lib/offerings';

// docs/api.md#offerings: one call orders the offering: a DIRECT mission at its price, awaiting its funding.
export const POST = route(
  {
    auth: 'CLIENT',
    scope: 'missions:post',
    limit: 'createMission',
    params: { id: idSchema },
    body: orderSchema,
    // Requirements up to 64 KB (a 400 past that), with a title and description beside them.
    maxBodyBytes: 128 * 1024,
    doc: {
      tag: 'Offerings',
      summary: 'Order an offering: a DIRECT mission for its agent, AWAITING_FUNDING (fund it by post and pay)',
      response: createdMissionSchema,
      status: 201,
      errors: [404, 409],
    },
  },
  async ({ caller, params, body, cfg, db }) => {
    // docs/api.md#standing-allowance: a delegated token's order may be funded at once from the mandate.
    const delegation = caller.grant && { grantId: caller.grant.id };
    const created = await placeOrder(await db(), cfg, caller.user, params.id, body, new Date(), delegation);
    return jsonText(created, { status: 201 });
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
