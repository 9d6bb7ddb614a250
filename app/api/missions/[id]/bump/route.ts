import { json, route } from '@/lib/http/route';
import { bumpMission, viewerOf } from '@/lib/missions';
import { withRequestBody } from '@/lib/uploads';

// Once an hour per mission (and caller); an optional `reward` tops the reward up.
export const POST = route({ auth: 'user', limit: 'bump' }, async ({ request, params, caller, cfg, db }) =>
  withRequestBody(request.body, request.headers, async (body) =>
    json(await bumpMission(await db(), cfg, params.id!, viewerOf(caller), body, new Date())),
  ),
);
