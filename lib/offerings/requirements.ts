// An offering's requirements schema (docs/api.md#offerings): a JSON Schema, draft 2020-12, compiled with
// ajv once when it is saved — what does not compile is a 400 then, never at an order — and kept compiled
// in a small bounded cache keyed by the offering and its version. Only local references (`#…`): the
// server never fetches a schema from anywhere.
import 'server-only';
import { bounded, OutOfTime } from '../bounded-call';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ApiError } from '../errors';

export const MAX_SCHEMA_BYTES = 16 * 1024;
export const MAX_REQUIREMENTS_BYTES = 64 * 1024;
/** What one order's requirements may cost to check against the schema. */
const VALIDATE_BUDGET_MS = 1_000;
const CACHE_SIZE = 256;
const REFERENCES = new Set(['$ref', '$dynamicRef', '$recursiveRef']);

const refuse = (detail: string) => new ApiError(400, 'Validation failed', [`requirementsSchema: ${detail}`]);

/** Every reference in the schema, wherever it sits: a remote one is refused before ajv sees it. */
function remoteReference(value: unknown, depth = 0): string | undefined {
  if (depth > 64) return 'nested too deeply';
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = remoteReference(item, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (REFERENCES.has(key) && (typeof item !== 'string' || !item.startsWith('#')))
      return `${key} ${JSON.stringify(item)} is not a local reference (only "#…")`;
    const found = remoteReference(item, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function compile(schema: Record<string, unknown>): ValidateFunction {
  // A fresh instance each time: ajv keeps every schema it compiled (and refuses a second with the same $id).
  const ajv = new Ajv2020({ allErrors: true, strict: true, loadSchema: undefined });
  addFormats(ajv);
  return ajv.compile(schema);
}

/** Checks a schema as it is saved: size, references, and that ajv compiles it. */
export function checkRequirementsSchema(schema: Record<string, unknown>): void {
  if (Buffer.byteLength(JSON.stringify(schema)) > MAX_SCHEMA_BYTES) throw refuse('must be at most 16 KB');
  const remote = remoteReference(schema);
  if (remote) throw refuse(remote);
  try {
    compile(schema);
  } catch (error) {
    throw refuse(`does not compile: ${(error as Error).message.slice(0, 300)}`);
  }
}

// Insertion order is age: the oldest compiled validator goes first when the cache is full.
const cache = new Map<string, ValidateFunction>();

function validatorOf(offering: { id: string; updatedAt: Date; requirementsSchema: unknown }): ValidateFunction {
  const key = `${offering.id}@${offering.updatedAt.getTime()}`;
  let validate = cache.get(key);
  if (!validate) {
    validate = compile(offering.requirementsSchema as Record<string, unknown>);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, validate);
  }
  return validate;
}

/** `requirements/url: required`: each failing JSON pointer under `requirements`, and what it failed. */
function describe(error: ErrorObject): string {
  const missing = error.keyword === 'required' ? `/${String(error.params.missingProperty)}` : '';
  const pointer = `requirements${error.instancePath}${missing}`;
  return `${pointer}: ${error.keyword === 'required' ? 'required' : (error.message ?? error.keyword)}`;
}

/** The order's requirements against the offering's schema; 400 naming every failing pointer. */
export function checkRequirements(
  offering: { id: string; updatedAt: Date; requirementsSchema: unknown },
  requirements: unknown,
): void {
  if (requirements !== undefined && Buffer.byteLength(JSON.stringify(requirements)) > MAX_REQUIREMENTS_BYTES)
    throw new ApiError(400, 'Validation failed', ['requirements: must be at most 64 KB']);
  if (offering.requirementsSchema === null || offering.requirementsSchema === undefined) return;
  const validate = validatorOf(offering);
  // The agent wrote the schema, the client the requirements, and both may be one attacker: a pattern that
  // backtracks without end stops at the budget instead of holding the server.
  let valid: boolean;
  try {
    valid = bounded(() => validate(requirements ?? null) === true, VALIDATE_BUDGET_MS);
  } catch (error) {
    if (!(error instanceof OutOfTime)) throw error;
    throw new ApiError(400, 'Validation failed', [
      `requirements: checking them against the offering's schema took longer than ${VALIDATE_BUDGET_MS / 1000} s`,
    ]);
  }
  if (valid) return;
  throw new ApiError(400, 'Validation failed', [...new Set((validate.errors ?? []).map(describe))]);
}
