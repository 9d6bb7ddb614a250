import { awardBounty, awardSchema } from '@/lib/missions/bounties';
import { otherMethods } from '@/lib/http/methods';
import { jsonText, route } from '@/lib/http/route';
import { missionSchema, viewerOf } from '@/lib/missions';
import { idSchema } from '@/lib/fields';
import { sendQueuedWebhooks } from '@/lib/webhooks';

// The client awards a JUDGING bounty (docs/api.md#bounties): `{ winners: [address…], reason? }` → AWARDED.
export const POST = route({
  after: sendQueuedWebhooks, auth: 'user', scope: 'missions:post', limit: 'write', body: awardSchema,
  doc: {
    tag: 'Bounties', summary: 'JUDGING → AWARDED: the winning entrants in place order, a reason for places left unawarded',
    description: 'Each entrant may then contest the award once (POST /api/missions/{id}/contest) within the review window → DISPUTED; otherwise COMPLETED and paid by releaseSplit.',
    params: { id: idSchema }, response: missionSchema, errors: [400, 403, 404, 409],
  },
}, async ({ params, caller, body, cfg, db }) =>
  jsonText(await awardBounty(await db(), cfg, params.id!, viewerOf(caller), body, new Date())),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
