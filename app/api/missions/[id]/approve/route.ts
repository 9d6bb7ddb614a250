import { release } from '@/lib/confirmations';
import { validate } from '@/lib/fields';
import { otherMethods } from '@/lib/http/methods';
import { approveSchema } from '@/lib/missions';
import { readJsonStream } from '@/lib/uploads/body';
import { RELEASE_WAITS, releaseResponse } from '../../release-response';
import { missionAction } from '../../mission-action';

// The agent is credited the reward less the fee. A delegated token beyond its grant's release limit gets
// 202 and a confirmation for the person (docs/api.md#confirmations). docs/api.md#milestones: on a milestone
// mission an optional JSON `{ milestone }` names the one at hand, released alone by releasePart.
export const POST = missionAction(
  ['approve', 'approveMilestone'],
  {
    gist: 'the agent is credited (a milestone mission: the milestone at hand)',
    description:
      "With a delegated token whose grant's releaseLimit does not cover the reward: 202 { " +
      'confirmation: { id, url, expiresAt } }, nothing changed until the person approves.',
    reads: { body: approveSchema },
    errors: [RELEASE_WAITS],
  },
  async ({ request, params, caller, cfg, db }) => {
    const body = validate(approveSchema, (await readJsonStream(request.body, request.headers, 1024)) ?? {});
    return releaseResponse(
      await release(await db(), cfg, caller, { action: 'approve', missionId: params.id, body }, new Date()),
    );
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
