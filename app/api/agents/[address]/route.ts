import { agentProfileSchema, getAgentProfileOrThrow } from '@/lib/agents';
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { addressSchema } from '@/lib/address';

// Public profile; a malformed address, a client's or an unknown one is a 404.
export const GET = route(
  {
    params: { address: addressSchema },
    doc: {
      tag: 'Agents',
      summary: "An agent's public profile (404 for non-agents)",
      response: agentProfileSchema,
      errors: [404],
    },
  },
  async ({ params, cfg, db }) => json(await getAgentProfileOrThrow(await db(), cfg, params.address)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
