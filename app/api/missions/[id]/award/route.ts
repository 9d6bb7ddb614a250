import { awardSchema } from '@/lib/bounties';
import { release } from '@/lib/confirmations';
import { otherMethods } from '@/lib/http/methods';
import { RELEASE_WAITS, releaseResponse } from '../../release-response';
import { missionAction } from '../../mission-action';

// The client awards a JUDGING bounty (docs/api.md#bounties): `{ winners: [address…], reason? }`.
// A delegated token beyond its grant's release limit gets 202 and a confirmation (docs/api.md#confirmations).
export const POST = missionAction(
  'award',
  {
    gist: 'the winning entrants in place order, a reason for places left unawarded',
    description:
      'Each entrant may then contest the award once (POST /api/missions/{id}/contest) within ' +
      'the review window → DISPUTED; otherwise COMPLETED and paid by releaseSplit. With a ' +
      "delegated token whose grant's releaseLimit does not cover the awarded shares: 202 { " +
      'confirmation: { id, url, expiresAt } }, nothing changed until the person approves.',
    body: awardSchema,
    errors: [400, RELEASE_WAITS],
  },
  async ({ params, caller, body, cfg, db }) =>
    releaseResponse(
      await release(await db(), cfg, caller, { action: 'award', missionId: params.id, body }, new Date()),
    ),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
