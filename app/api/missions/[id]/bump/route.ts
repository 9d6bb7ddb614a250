import { jsonText, route } from '@/lib/http/route';
import { readJsonStream } from '@/lib/http/validation';
import { bumpMission, precheck, viewerOf } from '@/lib/missions';
import { otherMethods } from '@/lib/http/methods';

// Back to the top of the board, once an hour per mission; an optional JSON `reward` tops it up.
// The caller's right to bump is decided before the body is read (docs/api.md#uploads).
export const POST = route({ auth: 'user', scope: 'missions:post', limit: 'write' }, async ({ request, params, caller, cfg, db }) => {
  const viewer = viewerOf(caller);
  await precheck(await db(), cfg, 'bump', params.id!, viewer, new Date());
  const input = (await readJsonStream(request.body, request.headers, 16 * 1024)) ?? {};
  return jsonText(await bumpMission(await db(), cfg, params.id!, viewer, input, new Date()));
});

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
