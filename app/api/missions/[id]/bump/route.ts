import { jsonText } from '@/lib/http/route';
import { readJsonStream } from '@/lib/uploads/body';
import { bumpMission, precheck } from '@/lib/marketplace';
import { bumpSchema, viewerOf } from '@/lib/missions';
import { otherMethods } from '@/lib/http/methods';
import { missionAction } from '../../mission-action';

// Back to the top of the board, once an hour per mission; an optional JSON `reward` tops it up.
// The caller's right to bump is decided before the body is read (docs/api.md#uploads).
export const POST = missionAction(
  'bump',
  { gist: 're-list, optionally topping up the reward (once an hour)', reads: { body: bumpSchema } },
  async ({ request, params, caller, cfg, db }) => {
    const viewer = viewerOf(caller);
    await precheck(await db(), cfg, 'bump', params.id, viewer, new Date());
    const input = (await readJsonStream(request.body, request.headers, 16 * 1024)) ?? {};
    return jsonText(await bumpMission(await db(), cfg, params.id, viewer, input, new Date()));
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
