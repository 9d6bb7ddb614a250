// Served at /.well-known/oauth-authorization-server (next.config.ts rewrites; RFC 8414).
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { authorizationServerMetadata } from '@/lib/oauth/metadata';

export const GET = route({}, async ({ cfg }) =>
  json(authorizationServerMetadata(cfg), { headers: { 'Cache-Control': 'public, max-age=3600', 'Access-Control-Allow-Origin': '*' } }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
