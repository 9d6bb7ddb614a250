// The OpenAPI document (docs/api.md#openapi): it covers every route file under app/api and nothing else, each
// operation as its route's options declare it, its schemas are the zod schemas the routes validate with,
// every reference resolves, every operation lists its errors in the `{ error, details? }` shape — and
// /docs renders all of it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { ROUTE_TABLE } from '@/app/api/documented-routes';
import { GET as healthRoute } from '@/app/api/health/route';
import { GET as liveRoute } from '@/app/api/health/live/route';
import { GET as openApiRoute } from '@/app/api/openapi.json/route';
import DocsPage from '@/app/docs/page';
import { errorBodySchema } from '@/lib/http/error-body';
import { buildOpenApiDocument } from '@/lib/openapi/document';
import { operationsOf } from '@/lib/openapi/operations';
import { healthReportSchema } from '@/lib/operations/health';
import { useTestEnvironment } from '../support/environment';
import { call } from '../support/http';

useTestEnvironment();

const doc = buildOpenApiDocument(ROUTE_TABLE);
type Json = Record<string, any>;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const root = join(process.cwd(), 'app/api');
/** Every route file under app/api but the catch-all. */
const routeFiles = () =>
  (readdirSync(root, { recursive: true }) as string[]).filter(
    (f) => /(^|\/)route\.tsx?$/.test(f) && !f.includes('[...'),
  );
/** `missions/[id]/accept/route.ts` → `/api/missions/[id]/accept`. */
const templateOf = (file: string) => `/api/${file.replace(/\/?route\.tsx?$/, '')}`.replace(/\/$/, '');

/** Every method a route file exports itself (not the 405s of otherMethods), as `METHOD /api/path/{param}`. */
function routeFileOperations(): string[] {
  return routeFiles().flatMap((file) => {
    const path = templateOf(file).replace(/\[(\w+)\]/g, '{$1}');
    const source = readFileSync(join(root, file), 'utf8');
    return METHODS.filter((m) =>
      new RegExp(`export\\s+(const|async\\s+function|function)\\s+${m}\\b`).test(source),
    ).map((m) => `${m} ${path}`);
  });
}

const documentOperations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) =>
      key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner),
    );
  }
  return [];
}

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _s, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return json;
};

describe('OpenAPI document', () => {
  test('behavior: every route file under app/api (but the catch-all) is in the route table, once', () => {
    const templates = ROUTE_TABLE.map(([template]) => template);
    expect(new Set(templates).size).toBe(templates.length);
    expect([...templates].sort(), 'add each route file to app/api/route-table.ts').toEqual(
      routeFiles().map(templateOf).sort(),
    );
  });

  test('behavior: every method a route file exports is documented', () => {
    const files = routeFileOperations();
    expect(files.length).toBeGreaterThan(20);
    const documented = new Set(documentOperations());
    const missing = files.filter((op) => !documented.has(op));
    expect(missing, 'give each of these a `doc` in its route options (documented() without route())').toEqual([]);
  });

  test('behavior: nothing is documented that no route file serves', () => {
    const served = new Set(routeFileOperations());
    expect(documentOperations().filter((op) => !served.has(op))).toEqual([]);
  });

  test('behavior: it is OpenAPI 3.1 and every $ref resolves', () => {
    expect(doc.openapi).toBe('3.1.0');
    const unresolved = refsIn(doc).filter((ref) => {
      const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
      return !section || !(doc.components as Json)[section]?.[name!];
    });
    expect(unresolved).toEqual([]);
  });

  test('behavior: bodies and responses are the zod schemas the routes use, converted (requests as input types)', () => {
    const schemas = doc.components.schemas as Json;
    const operation = (path: string, method: string) => (doc.paths as Json)[path][method];
    for (const route of operationsOf(ROUTE_TABLE)) {
      const op = operation(route.path, route.method);
      if (route.body) {
        const ref = op.requestBody.content[route.form ? 'application/x-www-form-urlencoded' : 'application/json'].schema
          .$ref as string;
        const converted = jsonSchema(route.body, 'input');
        // Named sub-schemas appear as $refs in the document and inline in a standalone conversion.
        if (refsIn(schemas[ref.split('/').pop()!]).length === 0)
          expect(schemas[ref.split('/').pop()!], route.path).toEqual(converted);
      }
      expect(op.responses[String(route.status ?? 200)], `${route.method} ${route.path}`).toBeDefined();
    }
    expect(schemas.AuthNonceBody).toMatchObject({ required: ['address'], additionalProperties: false });
    expect(schemas.Error).toEqual(jsonSchema(errorBodySchema, 'output'));
  });

  test('behavior: every operation lists its errors; path parameters are declared', () => {
    for (const [path, methods] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(methods as Json)) {
        const label = `${method} ${path}`;
        expect(op.responses['500'], label).toEqual({ $ref: '#/components/responses/InternalError' });
        const params = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
        const declared = (op.parameters as Json[]).filter((p) => p.in === 'path').map((p) => p.name);
        expect(declared, label).toEqual(params);
        if (op.parameters.some((p: Json) => p.in === 'query') || op.requestBody)
          expect(op.responses['400'], label).toBeDefined();
        if (op.security.length > 0 && !op.security.some((s: Json) => Object.keys(s).length === 0))
          expect(op.responses['401'], label).toBeDefined();
      }
    }
    const agentsOnly = (doc.paths as Json)['/api/agents/me/passport'].get;
    expect(Object.keys(agentsOnly.responses)).toEqual(['200', '400', '401', '403', '404', '500', '503']);
    const errorBody = (doc.components.responses as Json).BadRequest.content['application/json'].schema;
    expect(errorBody).toEqual({ $ref: '#/components/schemas/Error' });
  });

  test('behavior: GET /api/openapi.json serves the document', async () => {
    const response = await call(openApiRoute, { path: '/api/openapi.json' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  test('behavior: /docs renders every operation and every schema, server-side', () => {
    const html = renderToStaticMarkup(DocsPage());
    for (const op of documentOperations()) {
      const [method, path] = op.split(' ');
      expect(html).toContain(`${method} ${path}`.replace(/&/g, '&amp;'));
    }
    for (const name of Object.keys(doc.components.schemas)) expect(html).toContain(`id="schema-${name}"`);
  });
});

describe('GET /api/health', () => {
  test('behavior: reports database, KV and chain in the documented shape; liveness answers ok', async () => {
    const response = await call(healthRoute, { path: '/api/health' });
    expect(response.status).toBe(200);
    const report = healthReportSchema.strict().parse(response.body);
    expect(report).toMatchObject({ db: 'ok', kv: 'ok', chain: 'ok', settlements: { failed: expect.any(Number) } });
    // On a PostgreSQL shared by every suite of the run, others leave failed settlements: the status follows them.
    expect(report.status).toBe(report.settlements?.failed === 0 ? 'ok' : 'degraded');
    expect((doc.paths as Json)['/api/health'].get.responses['503'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/HealthResponse',
    });
    expect((await call(liveRoute)).body).toEqual({ ok: true });
  });
});
