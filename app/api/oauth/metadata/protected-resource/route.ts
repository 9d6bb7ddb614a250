// Served at /.well-known/oauth-protected-resource[/api/mcp] (next.config.ts rewrites; RFC 9728).
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { preflight } from '@/lib/http/cors';
import { protectedResourceMetadata } from '@/lib/oauth/metadata';
import { protocolDocumentSchema } from '@/lib/oauth/schemas';

export const GET = route({
  cors: true,
  doc: {
    tag: 'OAuth', summary: 'RFC 9728 metadata of /api/mcp, also at /.well-known/oauth-protected-resource',
    response: protocolDocumentSchema, static: true,
  },
}, async ({ cfg }) =>
  json(protectedResourceMetadata(cfg), { headers: { 'Cache-Control': 'public, max-age=3600' } }),
);

export const OPTIONS = preflight('GET');
export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
