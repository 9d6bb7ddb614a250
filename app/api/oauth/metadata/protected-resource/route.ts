// Served at /.well-known/oauth-protected-resource[/api/mcp] and /.well-known/oauth-protected-resource/api
// (next.config.ts rewrites; RFC 9728 §3.1): each resource's own document (docs/api.md#audience).
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { preflight } from '@/lib/http/cors';
import { metadataResourceOf, protectedResourceMetadata } from '@/lib/oauth/metadata';
import { protocolDocumentSchema } from '@/lib/oauth/schemas';

export const GET = route(
  {
    cors: true,
    doc: {
      tag: 'OAuth',
      summary: 'RFC 9728 metadata of /api/mcp; of /api at /.well-known/oauth-protected-resource/api',
      response: protocolDocumentSchema,
      static: true,
      errors: [404],
    },
  },
  async ({ request, cfg }) =>
    json(protectedResourceMetadata(cfg, metadataResourceOf(request)), {
      headers: { 'Cache-Control': 'public, max-age=3600' },
    }),
);

export const OPTIONS = preflight('GET');
export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
