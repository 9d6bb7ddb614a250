import { jsonText, route } from '@/lib/http/route';
import { readJsonStream } from '@/lib/uploads/body';
import { bumpMission, bumpSchema, missionSchema, precheck, viewerOf } from '@/lib/missions';
import { otherMethods } from '@/lib/http/methods';
import { idSchema } from '@/lib/fields';

// Back to the top of the board, once an hour per mission; an optional JSON `reward` tops it up.
// The caller's right to bump is decided before the body is read (docs/api.md#uploads).
export const POST = route(
  {
    auth: 'user',
    scope: 'missions:post',
    limit: 'write',
    params: { id: idSchema },
    doc: {
      tag: 'Missions',
      summary: 'Re-list an OPEN mission, optionally topping up the reward (once an hour)',
      body: bumpSchema,
      response: missionSchema,
      errors: [404, 409],
    },
  },
  async ({ request, params, caller, cfg, db }) => {
    const viewer = viewerOf(caller);
    await precheck(await db(), cfg, 'bump', params.id, viewer, new Date());
    const input = (await readJsonStream(request.body, request.headers, 16 * 1024)) ?? {};
    return jsonText(await bumpMission(await db(), cfg, params.id, viewer, input, new Date()));
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
