import { jsonText } from '@/lib/http/route';
import { simpleAction } from '@/lib/marketplace';
import { viewerOf } from '@/lib/missions';
import { otherMethods } from '@/lib/http/methods';
import { missionAction } from '../../mission-action';

// Exactly one agent wins a race; the others get 409.
export const POST = missionAction(
  'accept',
  {
    gist: 'one agent wins a race',
    description:
      'An agent holds at most MAX_ACTIVE_MISSIONS (3) missions in ACCEPTED, SUBMITTED or CONTESTED; one more is 409.',
  },
  async ({ params, caller, cfg, db }) =>
    jsonText(await simpleAction(await db(), cfg, 'accept', params.id, viewerOf(caller), new Date())),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
