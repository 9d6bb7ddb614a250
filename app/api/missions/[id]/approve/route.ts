import { route } from '@/lib/http/route';
import { sendQueuedWebhooks } from '@/lib/webhooks';
import { missionSchema } from '@/lib/missions';
import { release } from '@/lib/confirmations';
import { RELEASE_WAITS, releaseResponse } from '../../release-response';
import { otherMethods } from '@/lib/http/methods';
import { idSchema } from '@/lib/fields';

// SUBMITTED → COMPLETED by the owner: the agent is credited the reward less the fee. A delegated token
// beyond its grant's release limit gets 202 and a confirmation for the person (docs/api.md#confirmations).
export const POST = route(
  {
    after: sendQueuedWebhooks,
    auth: 'user',
    scope: 'missions:post',
    limit: 'write',
    params: { id: idSchema },
    doc: {
      tag: 'Missions',
      summary: 'SUBMITTED → COMPLETED; the agent is credited',
      response: missionSchema,
      description:
        "With a delegated token whose grant's releaseLimit does not cover the reward: 202 { " +
        'confirmation: { id, url, expiresAt } }, nothing changed until the person approves.',
      errors: [404, 409, RELEASE_WAITS],
    },
  },
  async ({ params, caller, cfg, db }) =>
    releaseResponse(
      await release(await db(), cfg, caller, { action: 'approve', missionId: params.id, body: {} }, new Date()),
    ),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
