// The whole route table — the service routes, this document and MCP — and the OpenAPI document built
// from it (/api/openapi.json serves it, /docs renders it, the SDK's sources are generated from it).
// The document's own route is declared here, beside the table it reads, so no route module imports
// a table that imports it back: MCP reaches only the service routes (route-table.ts).
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import type { RouteTable } from '@/lib/http/route-table';
import type { ApiRouteTemplate } from '@/lib/http/route-templates';
import { buildOpenApiDocument, type OpenApiDocument } from '@/lib/openapi/document';
import { z } from 'zod';
import * as mcp from '@/app/api/mcp/route';
import { SERVICE_ROUTES } from '@/app/api/route-table';

const documentSchema = z.record(z.string(), z.unknown()).describe('This OpenAPI 3.1 document');

/** /api/openapi.json: built from every route's own options and the zod schemas they validate with. */
export const DOCUMENT_ROUTE = {
  GET: route(
    {
      doc: { tag: 'Operations', summary: 'This document', response: documentSchema, static: true },
    },
    async () => json(openApiDocument(), { headers: { 'Cache-Control': 'public, max-age=300' } }),
  ),
  ...otherMethods('GET'),
};

export const ROUTE_TABLE: RouteTable<ApiRouteTemplate> = [
  ...SERVICE_ROUTES,
  ['/api/openapi.json', DOCUMENT_ROUTE],
  ['/api/mcp', mcp],
];

let built: OpenApiDocument | undefined;

/** Built once per process: it depends on code only, never on configuration. */
export function openApiDocument(): OpenApiDocument {
  built ??= buildOpenApiDocument(ROUTE_TABLE);
  return built;
}
