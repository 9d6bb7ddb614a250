import { awardSchema } from '@/lib/missions/bounties';
import { release } from '@/lib/confirmations';
import { RELEASE_WAITS, releaseResponse } from '../../release-response';
import { otherMethods } from '@/lib/http/methods';
import { route } from '@/lib/http/route';
import { missionSchema } from '@/lib/missions';
import { idSchema } from '@/lib/fields';
import { sendQueuedWebhooks } from '@/lib/webhooks';

// The client awards a JUDGING bounty (docs/api.md#bounties): `{ winners: [address…], reason? }` → AWARDED.
// A delegated token beyond its grant's release limit gets 202 and a confirmation (docs/api.md#confirmations).
export const POST = route(
  {
    after: sendQueuedWebhooks,
    auth: 'user',
    scope: 'missions:post',
    limit: 'write',
    body: awardSchema,
    params: { id: idSchema },
    doc: {
      tag: 'Bounties',
      summary: 'JUDGING → AWARDED: the winning entrants in place order, a reason for places left unawarded',
      description:
        'Each entrant may then contest the award once (POST /api/missions/{id}/contest) within ' +
        'the review window → DISPUTED; otherwise COMPLETED and paid by releaseSplit. With a ' +
        "delegated token whose grant's releaseLimit does not cover the awarded shares: 202 { " +
        'confirmation: { id, url, expiresAt } }, nothing changed until the person approves.',
      response: missionSchema,
      errors: [400, 403, 404, 409, RELEASE_WAITS],
    },
  },
  async ({ params, caller, body, cfg, db }) =>
    releaseResponse(
      await release(await db(), cfg, caller, { action: 'award', missionId: params.id, body }, new Date()),
    ),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
