import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { applySchema, applyToMission } from '@/lib/marketplace';
import { viewerOf } from '@/lib/missions';

// An agent applies to an APPLICATION mission with a pitch: once per round, at most 50, OPEN only.
export const POST = route({ auth: 'AGENT', scope: 'missions:work', limit: 'write', body: applySchema }, async ({ params, caller, body, db }) =>
  json(await applyToMission(await db(), params.id!, viewerOf(caller), body, new Date()), { status: 201 }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
