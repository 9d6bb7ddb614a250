// Served at /.well-known/oauth-authorization-server (next.config.ts rewrites; RFC 8414).
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { preflight } from '@/lib/http/cors';
import { authorizationServerMetadata } from '@/lib/oauth/metadata';
import { protocolDocumentSchema } from '@/lib/oauth/schemas';

export const GET = route(
  {
    cors: true,
    doc: {
      tag: 'OAuth',
      summary: 'RFC 8414 metadata, also at /.well-known/oauth-authorization-server',
      response: protocolDocumentSchema,
      static: true,
    },
  },
  async ({ cfg }) => json(authorizationServerMetadata(cfg), { headers: { 'Cache-Control': 'public, max-age=3600' } }),
);

export const OPTIONS = preflight('GET');
export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
