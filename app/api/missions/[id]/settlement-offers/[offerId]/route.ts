import { idSchema } from '@/lib/fields';
import { otherMethods } from '@/lib/http/methods';
import { route } from '@/lib/http/route';
import { answerSettlementOffer } from '@/lib/confirmations';
import { missionSchema, settlementAnswerSchema } from '@/lib/missions';
import { RELEASE_WAITS, releaseResponse } from '@/app/api/missions/release-response';

// docs/api.md#settlement-offers: the other party accepts (COMPLETED, or CANCELLED for nothing to the agent, sent
// on-chain by settle) or rejects (nothing changes). The client's acceptance is a release (docs/api.md#confirmations).
export const POST = route(
  {
    auth: 'user',
    scope: ['missions:post', 'missions:work'],
    limit: 'write',
    params: { id: idSchema, offerId: idSchema },
    body: settlementAnswerSchema,
    doc: {
      tag: 'Missions',
      summary: 'SUBMITTED, CONTESTED, DISPUTED → COMPLETED or CANCELLED (accept), unchanged (reject): answer an offer',
      description:
        "Accepted by the client with a delegated token whose grant's releaseLimit does not cover agentAmount: 202 " +
        '{ confirmation: { id, url, expiresAt } }, bound to the offer; nothing changed until the person approves. ' +
        'An offer answered, replaced or lapsed is 409.',
      response: missionSchema,
      errors: [403, 404, 409, RELEASE_WAITS],
    },
  },
  async ({ params, body, caller, cfg, db }) =>
    releaseResponse(
      await answerSettlementOffer(await db(), cfg, caller, params.id, params.offerId, body.decision, new Date()),
    ),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
