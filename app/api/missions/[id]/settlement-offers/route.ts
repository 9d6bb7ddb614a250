import { idSchema } from '@/lib/fields';
import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { offerSettlement } from '@/lib/confirmations';
import { settlementOfferSchema, settlementOfferViewSchema } from '@/lib/missions';

// docs/api.md#settlement-offers: either party of a SUBMITTED, CONTESTED or DISPUTED mission offers to settle
// in part; a new offer replaces the pending one. The client's side needs missions:post, the agent's missions:work.
export const POST = route(
  {
    auth: 'user',
    scope: ['missions:post', 'missions:work'],
    limit: 'write',
    params: { id: idSchema },
    body: settlementOfferSchema,
    doc: {
      tag: 'Missions',
      summary: 'Offer to settle in part: agentAmount to the agent, the rest refunded',
      description:
        'One pending offer per mission (a new one replaces it); it lapses after 72 h or at any transition. ' +
        "The other party answers it. A client's offer made with a delegated token counts against the grant's " +
        'release limit (403 beyond it). A mission funded on an escrow from before v5 cannot settle in part (409).',
      response: settlementOfferViewSchema,
      status: 201,
      errors: [400, 403, 404, 409],
    },
  },
  async ({ params, body, caller, cfg, db }) =>
    json(await offerSettlement(await db(), cfg, caller, params.id, body, new Date()), { status: 201 }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
