// Served at /.well-known/mcp/server-card.json (next.config.ts rewrites; docs/api.md#server-card).
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { preflight } from '@/lib/http/cors';
import { serverCard } from '@/lib/discovery/server-card';
import { protocolDocumentSchema } from '@/lib/oauth/schemas';

export const GET = route(
  {
    cors: true,
    doc: {
      tag: 'MCP',
      summary: 'The MCP server card (SEP-2127), also at /.well-known/mcp/server-card.json',
      response: protocolDocumentSchema,
      static: true,
    },
  },
  async ({ cfg }) => json(serverCard(cfg), { headers: { 'Cache-Control': 'public, max-age=3600' } }),
);

export const OPTIONS = preflight('GET');
export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
