// Every answer the integration suites see, held against the OpenAPI document (docs/api.md#openapi):
// its status must be one the operation lists, and a JSON body must match the schema listed for that
// status. The document is the one the SDK is generated from (sdk/src/generated/openapi.ts, kept equal
// to the served one by tests/unit/sdk/generated.test.ts), so checking costs no route table load.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { openApiDocument } from '../../sdk/src/generated/openapi';

type Json = Record<string, any>;
interface Documented {
  path: string;
  method: string;
  responses: Json;
}

const document = openApiDocument as unknown as Json;

/** Operations by method and summary: a route handler carries its summary in its options. */
const operations = new Map<string, Documented>();
for (const [path, methods] of Object.entries(document.paths as Json)) {
  for (const [method, op] of Object.entries(methods as Json)) {
    operations.set(`${method.toUpperCase()} ${op.summary}`, {
      path,
      method: method.toUpperCase(),
      responses: op.responses,
    });
  }
}

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats.default(ajv);
ajv.addSchema({ $id: 'openapi', components: document.components });
const validators = new Map<string, ValidateFunction>();

const anchored = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/'));

function responseOf(op: Documented, status: number): Json | undefined {
  const entry = op.responses[String(status)];
  if (!entry?.$ref) return entry;
  return document.components.responses[(entry.$ref as string).split('/').pop()!];
}

type Described = { options?: { doc?: { summary?: string } } };

/** Why the answer breaks the document, or undefined when it keeps to it (or the handler is undocumented). */
export function documentViolation(
  handler: unknown,
  method: string,
  status: number,
  contentType: string | null,
  body: unknown,
): string | undefined {
  const summary = (handler as Described).options?.doc?.summary;
  const op = summary ? operations.get(`${method} ${summary}`) : undefined;
  if (!op) return undefined;
  const response = responseOf(op, status);
  const label = `${op.method} ${op.path}`;
  if (!response)
    return (
      `${label} answered ${status}, ` +
      `which the OpenAPI document does not list (${Object.keys(op.responses).join(', ')})`
    );
  const schema = response.content?.['application/json']?.schema;
  if (!schema || !contentType?.includes('application/json')) return undefined;
  const key = `${label} ${status}`;
  let validate = validators.get(key);
  if (!validate) validators.set(key, (validate = ajv.compile(anchored(schema) as object)));
  if (validate(body)) return undefined;
  return (
    `${label} answered ${status} with a body the OpenAPI document does not allow: ` + ajv.errorsText(validate.errors)
  );
}
