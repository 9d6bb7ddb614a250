// Served at /.well-known/oauth-protected-resource[/api/mcp] (next.config.ts rewrites; RFC 9728).
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { protectedResourceMetadata } from '@/lib/oauth/metadata';

export const GET = route({}, async ({ cfg }) =>
  json(protectedResourceMetadata(cfg), { headers: { 'Cache-Control': 'public, max-age=3600', 'Access-Control-Allow-Origin': '*' } }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
