import { otherMethods } from '@/lib/http/methods';
import { jsonText } from '@/lib/http/route';
import { simpleAction } from '@/lib/marketplace';
import { viewerOf } from '@/lib/missions';
import { missionAction } from '../../mission-action';

// Once the agent has gone ACCEPT_WINDOW_SECONDS without delivering.
export const POST = missionAction(
  'reopen',
  { gist: 'by the owner after ACCEPT_WINDOW_SECONDS without a submission' },
  async ({ params, caller, cfg, db }) =>
    jsonText(await simpleAction(await db(), cfg, 'reopen', params.id, viewerOf(caller), new Date())),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
