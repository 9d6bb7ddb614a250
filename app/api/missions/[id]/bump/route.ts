import { jsonText, route } from '@/lib/http/route';
import { bumpMission, viewerOf } from '@/lib/missions';
import { withRequestBody } from '@/lib/uploads';

// Back to the top of the board, once an hour per mission; an optional `reward` tops it up.
export const POST = route({ auth: 'user', limit: 'write' }, async ({ request, params, caller, cfg, db }) =>
  withRequestBody(request.body, request.headers, async (body) =>
    jsonText(await bumpMission(await db(), cfg, params.id!, viewerOf(caller), body, new Date())),
  ),
);
