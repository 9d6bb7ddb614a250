import { z } from 'zod';
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { openApiDocument } from './document';

const documentSchema = z.record(z.string(), z.unknown()).describe('This OpenAPI 3.1 document');

// Built from every route's own options and the zod schemas they validate with (app/api/route-table.ts).
export const GET = route({
  doc: { tag: 'Operations', summary: 'This document', response: documentSchema, static: true },
}, async () => json(openApiDocument(), { headers: { 'Cache-Control': 'public, max-age=300' } }));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
