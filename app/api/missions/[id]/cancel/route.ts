import { jsonText } from '@/lib/http/route';
import { cancelMission } from '@/lib/marketplace';
import { viewerOf } from '@/lib/missions';
import { otherMethods } from '@/lib/http/methods';
import { missionAction } from '../../mission-action';

// One URL, two rows: the owner cancels, the assigned agent withdraws.
export const POST = missionAction(['cancel', 'withdraw'], {}, async ({ params, caller, cfg, db }) =>
  jsonText(await cancelMission(await db(), cfg, params.id, viewerOf(caller), new Date())),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
