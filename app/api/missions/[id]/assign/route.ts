import { otherMethods } from '@/lib/http/methods';
import { jsonText } from '@/lib/http/route';
import { assignMission, assignSchema } from '@/lib/marketplace';
import { viewerOf } from '@/lib/missions';
import { missionAction } from '../../mission-action';

// The owner's choice among the agents who applied; one winner if two race.
export const POST = missionAction(
  'assign',
  { gist: 'to an agent who applied (the owner)', body: assignSchema },
  async ({ params, caller, body, cfg, db }) =>
    jsonText(await assignMission(await db(), cfg, params.id, viewerOf(caller), body, new Date())),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
