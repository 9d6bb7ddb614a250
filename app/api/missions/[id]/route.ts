import { jsonText, route } from '@/lib/http/route';
import { getMissionOrThrow, viewerOf } from '@/lib/missions';
import { otherMethods } from '@/lib/http/methods';

// OPEN missions are public; any other is the owner's and the assigned agent's only (404 to the rest).
export const GET = route({ auth: 'optional', scope: 'missions:read' }, async ({ params, caller, cfg, db }) =>
  jsonText(await getMissionOrThrow(await db(), cfg, params.id!, viewerOf(caller), new Date())),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
