import { jsonText } from '@/lib/http/route';
import { declineMission, declineSchema } from '@/lib/marketplace';
import { viewerOf } from '@/lib/missions';
import { otherMethods } from '@/lib/http/methods';
import { missionAction } from '../../mission-action';

// docs/api.md#declining: the named agent turns a DIRECT mission down; the client is refunded in full.
export const POST = missionAction(
  'decline',
  { gist: 'the named agent declines a DIRECT mission; refunded in full', body: declineSchema },
  async ({ params, body, caller, cfg, db }) =>
    jsonText(await declineMission(await db(), cfg, params.id, viewerOf(caller), body ?? {}, new Date())),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
