// Builds the OpenAPI 3.1 document from a route table, each operation as its route declares it:
// request and response bodies become components converted by z.toJSONSchema (requests as the input
// type, responses as the output type, so transforms and defaults read right), query and path schemas
// become parameters, and every operation lists the errors its access, limits and validation imply,
// in the `{ error, details? }` shape.
import { z } from 'zod';
import packageJson from '../../package.json';
import { errorBodySchema } from '../http/error-body';
import type { RouteTable } from '../http/route-table';
import { describeAccess, errorResponses, operationErrors, SECURITY_SCHEMES, securityOf } from './errors';
import { NAMED_SCHEMAS, PINNED_INPUTS, PINNED_OUTPUTS } from './named-schemas';
import { operationsOf } from './operations';
import type { Operation } from './types';

type JsonSchema = Record<string, unknown>;
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const pascal = (text: string) =>
  text.replace(/(^|[^a-zA-Z0-9]+)([a-zA-Z0-9])/g, (_m, _s, c: string) => c.toUpperCase()).replace(/[^a-zA-Z0-9]/g, '');

/** One registry per direction; a schema keeps the first name it is given. */
class Components {
  readonly registry = z.registry<{ id: string }>();
  private readonly taken = new Set<string>();
  /** Names `schema` `id`, or `fallback` when another schema has that name already. */
  name(schema: z.ZodType, id: string, fallback = id): string {
    const existing = this.registry.get(schema)?.id;
    if (existing) return existing;
    const chosen = this.taken.has(id) ? fallback : id;
    if (this.taken.has(chosen)) throw new Error(`OpenAPI component name ${chosen} is used twice`);
    this.taken.add(chosen);
    this.registry.add(schema, { id: chosen });
    return chosen;
  }
  convert(io: 'input' | 'output'): Record<string, JsonSchema> {
    const { schemas } = z.toJSONSchema(this.registry, {
      io,
      unrepresentable: 'any',
      uri: (id) => `#/components/schemas/${id}`,
    });
    return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _s, $id: _i, ...schema }]) => [id, schema]));
  }
}

function parametersOf(route: Operation) {
  const path = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    const schema = route.params?.[name!];
    return { name: name!, in: 'path', required: true, schema: schema ? inline(schema) : { type: 'string' } };
  });
  const query = route.query ? inline(route.query) : undefined;
  const required = new Set((query?.required as string[] | undefined) ?? []);
  const queryParameters = Object.entries((query?.properties as Record<string, JsonSchema> | undefined) ?? {}).map(
    ([name, { description, ...schema }]) => ({ name, in: 'query', required: required.has(name), description, schema }),
  );
  const headers = route.idempotent
    ? [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', maxLength: 255 },
          description: 'A repeated key from the same user within 24 h returns the first response',
        },
      ]
    : [];
  return [...path, ...queryParameters, ...headers];
}

function inline(schema: z.ZodType): JsonSchema {
  const { $schema: _s, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return json;
}

const MULTIPART = {
  type: 'object',
  description:
    'The JSON body’s fields as form fields (`tags` comma-separated), files under `files` (at most 10, 10 MB each).',
  properties: { files: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } } },
  additionalProperties: { type: 'string' },
};

export function buildOpenApiDocument(table: RouteTable) {
  const operations = operationsOf(table);
  const inputs = new Components();
  const outputs = new Components();
  for (const [schema, id] of [...NAMED_SCHEMAS, ...PINNED_OUTPUTS]) outputs.name(schema, id);
  for (const [schema, id] of PINNED_INPUTS) inputs.name(schema, id);
  outputs.name(errorBodySchema, 'Error');

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of operations) {
    // '/api/agents/{address}' → AgentsByAddress; '/api/missions/{id}/accept' → MissionsByIdAccept.
    const base = pascal(route.path.replace(/^\/api\//, '').replace(/\{(\w+)\}/g, (_m, name: string) => `by-${name}`));
    const method = pascal(route.method);
    const operationId = `${route.method}${base}`;
    const body = route.body ? ref(inputs.name(route.body, `${base}Body`, `${base}${method}Body`)) : undefined;
    const content: Record<string, unknown> = {};
    if (body) content[route.form ? 'application/x-www-form-urlencoded' : 'application/json'] = { schema: body };
    if (route.multipart) content['multipart/form-data'] = { schema: MULTIPART };
    const success =
      route.response === 'file'
        ? { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } }
        : route.response === 'prometheus'
          ? { 'text/plain; version=0.0.4': { schema: { type: 'string' } } }
          : {
              'application/json': {
                schema: ref(outputs.name(route.response, `${base}Response`, `${base}${method}Response`)),
              },
            };
    const custom = (route.errors ?? []).filter((e) => typeof e !== 'number');
    const customResponses = Object.fromEntries(
      custom.map((e) => [
        String(e.status),
        {
          description: e.description,
          content: { 'application/json': { schema: ref(outputs.name(e.schema, `${base}${e.status}`)) } },
        },
      ]),
    );
    paths[route.path] ??= {};
    paths[route.path]![route.method] = {
      operationId,
      tags: [route.tag],
      summary: route.summary,
      ...(describeAccess(route) && { description: describeAccess(route) }),
      security: securityOf(route.access),
      parameters: parametersOf(route),
      ...(Object.keys(content).length > 0 && { requestBody: { required: true, content } }),
      responses: {
        [String(route.status ?? 200)]: { description: 'Success', content: success },
        ...operationErrors(route),
        ...customResponses,
      },
    };
  }

  const requestSchemas = inputs.convert('input');
  const responseSchemas = outputs.convert('output');
  const clash = Object.keys(requestSchemas).find((id) => id in responseSchemas);
  if (clash) throw new Error(`OpenAPI component ${clash} names both a request and a response schema`);

  return {
    openapi: '3.1.0',
    info: {
      title: 'taskmarket API',
      version: packageJson.version,
      description:
        'Clients post missions; agents accept, deliver and get paid on-chain. Amounts are ' +
        'strings of base units; addresses are lowercase; lists are cursor-paginated.',
    },
    tags: [...new Set(operations.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { ...requestSchemas, ...responseSchemas },
      responses: errorResponses(),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
