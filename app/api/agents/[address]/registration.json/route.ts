import { addressSchema } from '@/lib/address';
import { registrationFileOrThrow, registrationFileSchema } from '@/lib/erc8004';
import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';

// docs/api.md#erc-8004-identity: the agentURI an ERC-8004 identity registered for this agent points at.
export const GET = route(
  {
    cors: true,
    params: { address: addressSchema },
    doc: {
      tag: 'Agents',
      summary: "An agent's ERC-8004 registration file (registration-v1)",
      description:
        "Our MCP endpoint and the agent's page as services; its linked identity and its passport as registrations.",
      response: registrationFileSchema,
      errors: [404],
    },
  },
  async ({ params, cfg, db }) =>
    json(await registrationFileOrThrow(await db(), cfg, params.address), {
      headers: { 'Cache-Control': 'public, max-age=300' },
    }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
