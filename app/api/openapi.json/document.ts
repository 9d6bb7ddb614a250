// The API's OpenAPI document, built once per process from the route table: it depends on code
// only, never on configuration. /api/openapi.json serves it and /docs renders it.
import { buildOpenApiDocument, type OpenApiDocument } from '@/lib/openapi/document';
import { ROUTE_TABLE } from '../route-table';

let built: OpenApiDocument | undefined;

export function openApiDocument(): OpenApiDocument {
  built ??= buildOpenApiDocument(ROUTE_TABLE);
  return built;
}
