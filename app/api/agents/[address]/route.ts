import { getAgentProfileOrThrow } from '@/lib/agents';
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';

// Public profile; a malformed address, a client's or an unknown one is a 404.
export const GET = route({}, async ({ params, cfg, db }) => json(await getAgentProfileOrThrow(await db(), cfg, params.address!)));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
