import { json, route } from '@/lib/http/route';
import { openApiDocument } from '@/lib/openapi/document';
import { otherMethods } from '@/lib/http/methods';

// Built from the route registry and the zod schemas the routes validate with (lib/openapi).
export const GET = route({}, async () => json(openApiDocument(), { headers: { 'Cache-Control': 'public, max-age=300' } }));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
