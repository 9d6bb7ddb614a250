// Machine checks of acceptance criteria (docs/api.md#checked-criteria): what is wrong with them when a
// mission is created, and what each finds at submit. The client writes the checks and the agent the
// deliverables, and both may be one attacker: everything a check runs on their input is bounded.
import 'server-only';
import { bounded, OutOfTime } from '../bounded-call';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Config } from '../config';
import { ApiError } from '../errors';
import { guardedGet } from '../outbound/guarded-get';
import { checkWebhookTarget } from '../outbound/url-guard';
import { type CheckResult, type CriterionCheck, MAX_SCHEMA_BYTES } from './criteria';

/** A file the agent delivered, as a check sees it: its stored facts, and its bytes on demand. */
export interface DeliveredFile {
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  read(): Promise<Buffer>;
}

type JsonSchemaCheck = Extract<CriterionCheck, { type: 'jsonSchema' }>;
type HttpGetCheck = Extract<CriterionCheck, { type: 'httpGet' }>;
interface Outcome {
  passed: boolean;
  detail: string;
}

/** A schema check parses at most this much JSON: a file is read whole, and parsing is not bounded. */
export const MAX_JSON_BYTES = 5 * 1024 * 1024;
/** The sync work of one submit's schema checks together (compiles apart): the event loop is held no longer. */
const VALIDATION_BUDGET_MS = 2_000;
const COMPILE_BUDGET_MS = 2_000;
const HTTP = { deadlineMs: 5_000, maxBytes: 1024 * 1024 };
// At creation the address may not be deployed yet: a quick look only, to catch a redirect.
const PROBE = { deadlineMs: 3_000, maxBytes: 64 * 1024 };
const CACHE_SIZE = 100;
const REFERENCES = new Set(['$ref', '$dynamicRef', '$recursiveRef']);
const MAX_DEPTH = 128;

const pass = (detail: string): Outcome => ({ passed: true, detail: clean(detail) });
const fail = (detail: string): Outcome => ({ passed: false, detail: clean(detail) });

/** One short line: a detail quotes what strangers wrote (a file name, a Location, a parser's excerpt). */
function clean(text: string, max = 240): string {
  const line = text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function messageOf(error: unknown): string {
  if (error instanceof ApiError && error.details?.length) return error.details.join('; ');
  return error instanceof Error ? error.message : String(error);
}

function compile(schema: Record<string, unknown> | boolean): ValidateFunction {
  // Strict where a mistake would pass silently: an unknown (typo'd) keyword, a keyword ajv would ignore, an
  // unknown format — all refused at creation. The type-coherence rules (strictTypes, strictTuples,
  // strictRequired) are off: they refuse valid schemas, and only log otherwise. ajv-formats supports the
  // common formats (date-time, email, uri, uuid…); one it does not know is a compile error, never ignored.
  // ownProperties: `required: ["constructor"]` must not be met by what every object inherits.
  // A fresh instance: ajv keeps every schema it compiled, and refuses a second one with the same $id.
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allErrors: false,
    ownProperties: true,
  });
  addFormats(ajv);
  return ajv.compile(schema);
}

// Keyed by the schema's text, insertion order is age: a repeated submit does not compile again.
const validators = new Map<string, ValidateFunction>();

function validatorFor(text: string, schema: Record<string, unknown> | boolean): ValidateFunction {
  const cached = validators.get(text);
  if (cached) {
    validators.delete(text);
    validators.set(text, cached);
    return cached;
  }
  const validate = bounded(() => compile(schema), COMPILE_BUDGET_MS);
  if (validators.size >= CACHE_SIZE) validators.delete(validators.keys().next().value!);
  validators.set(text, validate);
  return validate;
}

/** The first reference that is not local (`#…`), anywhere in the schema: the server never fetches one. */
function remoteReference(value: unknown, depth = 0): string | undefined {
  if (depth > MAX_DEPTH) return `nested deeper than ${MAX_DEPTH} levels`;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (!Array.isArray(value) && REFERENCES.has(key) && (typeof item !== 'string' || !item.startsWith('#')))
      return `${key} ${JSON.stringify(item)} is not a local reference (only "#…")`;
    const found = remoteReference(item, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Why the schema may not be checked against (size, references, compile), or its validator. */
function schemaVerdict(schema: JsonSchemaCheck['schema']): { validate: ValidateFunction } | { problem: string } {
  const text = JSON.stringify(schema);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_SCHEMA_BYTES) return { problem: `must be at most 16 KB (its compact JSON is ${bytes} bytes)` };
  const remote = remoteReference(schema);
  if (remote) return { problem: remote };
  try {
    return { validate: validatorFor(text, schema) };
  } catch (error) {
    if (error instanceof OutOfTime) return { problem: `took longer than ${COMPILE_BUDGET_MS / 1000} s to compile` };
    return { problem: `does not compile: ${messageOf(error)}` };
  }
}

/** At creation: the problems with the checks (400 details), [] when fine. `field` prefixes each, e.g. "criteria". */
export async function checkProblems(
  cfg: Config,
  checks: readonly (CriterionCheck | null)[],
  field = 'criteria',
): Promise<string[]> {
  const found = await Promise.all(
    checks.map(async (check, index): Promise<string[]> => {
      const at = `${field}.${index}.check`;
      if (check?.type === 'jsonSchema') {
        const verdict = schemaVerdict(check.schema);
        return 'problem' in verdict ? [clean(`${at}.schema: ${verdict.problem}`, 400)] : [];
      }
      if (check?.type === 'httpGet') return (await httpProblems(cfg, check, at)).map((p) => clean(p, 400));
      return [];
    }),
  );
  return found.flat();
}

async function httpProblems(cfg: Config, check: HttpGetCheck, at: string): Promise<string[]> {
  // A redirect is never followed, and 1xx is never a final answer: such a check could never pass.
  const status = check.status ?? 200;
  if (status < 200 || (status >= 300 && status < 400))
    return [`${at}.status: ${status} can never be the answer checked (redirects are not followed)`];
  let url: URL;
  try {
    url = new URL(check.url);
  } catch {
    return [`${at}.url: not a URL`];
  }
  if (url.protocol !== 'https:') return [`${at}.url: must be https`];
  try {
    await checkWebhookTarget(url.href, cfg.webhooks.allowPrivate);
  } catch (error) {
    const details = error instanceof ApiError && error.details?.length ? error.details : [`url: ${messageOf(error)}`];
    return details.map((detail) => `${at}.${detail}`);
  }
  try {
    const answer = await guardedGet(cfg, url, { ...PROBE, accept: check.contentType ?? '*/*' });
    if (answer.status >= 300 && answer.status < 400)
      return [`${at}.url: redirects to ${locationOf(answer.headers)}: give the final address`];
  } catch (error) {
    // Unreachable or slow is judged at submit (the agent may deploy it later); an internal address never.
    const message = messageOf(error);
    if (/internal address/.test(message)) return [`${at}.url: ${message}`];
  }
  return [];
}

const locationOf = (headers: Record<string, string | string[] | undefined>) =>
  String(headers.location ?? '(no Location)');

/** At submit: one CheckResult per criterion that has a check (criterion numbered from 1 = index + 1), in order. */
export async function runChecks(
  cfg: Config,
  checks: readonly (CriterionCheck | null)[],
  files: readonly DeliveredFile[],
  now: Date,
): Promise<CheckResult[]> {
  const checkedAt = now.toISOString();
  const budget = { leftMs: VALIDATION_BUDGET_MS };
  // Schema checks one after another: one JSON file in memory at a time, and one budget spent in order.
  let schemaTurn: Promise<unknown> = Promise.resolve();
  const results = checks.map(async (check, index): Promise<CheckResult | undefined> => {
    if (!check) return undefined;
    let outcome: Outcome;
    try {
      if (check.type === 'jsonSchema') {
        const run = schemaTurn.then(() => jsonSchemaOutcome(check, files, budget));
        schemaTurn = run.catch(() => undefined);
        outcome = await run;
      } else if (check.type === 'httpGet') outcome = await httpOutcome(cfg, check);
      else if (check.type === 'sha256') outcome = sha256Outcome(check, files);
      else outcome = fileOutcome(check, files);
    } catch (error) {
      // A check's own failure (a file that cannot be read) fails the criterion; it never fails the submit.
      outcome = fail(`could not be checked: ${messageOf(error)}`);
    }
    return { criterion: index + 1, passed: outcome.passed, detail: outcome.detail, checkedAt };
  });
  return (await Promise.all(results)).filter((result): result is CheckResult => result !== undefined);
}

/** The one deliverable of that name; two of the same name are ambiguous, and neither is chosen. */
function deliverable(files: readonly DeliveredFile[], name: string): DeliveredFile | Outcome {
  const named = files.filter((file) => file.filename === name);
  if (named.length === 0) return fail(`no deliverable named ${name}`);
  if (named.length > 1) return fail(`${named.length} deliverables are named ${name}: the check reads exactly one`);
  return named[0]!;
}

const isOutcome = (value: DeliveredFile | Outcome): value is Outcome => 'passed' in value;

function fileOutcome(check: Extract<CriterionCheck, { type: 'file' }>, files: readonly DeliveredFile[]): Outcome {
  const needed = check.minCount ?? 1;
  const mime = check.mime?.toLowerCase();
  const named = check.name === undefined ? files : files.filter((file) => file.filename === check.name);
  const typed = mime === undefined ? named : named.filter((file) => file.contentType.toLowerCase() === mime);
  const small = check.maxBytes === undefined ? typed : typed.filter((file) => file.size <= check.maxBytes!);
  const wanted = [
    check.name !== undefined && `named ${check.name}`,
    mime !== undefined && `of type ${mime}`,
    check.maxBytes !== undefined && `of at most ${check.maxBytes} bytes`,
  ]
    .filter(Boolean)
    .join(' ');
  const found = `found ${small.length} deliverable${small.length === 1 ? '' : 's'}${wanted ? ` ${wanted}` : ''}`;
  if (small.length >= needed) return pass(`${found} (${needed} needed)`);
  // Nothing at all matched: say which condition the candidates failed, the first one that left none.
  const subject = (list: readonly DeliveredFile[]) => (list.length === 1 ? list[0]!.filename : `all ${list.length}`);
  if (named.length === 0)
    return fail(check.name === undefined ? 'no deliverables' : `no deliverable named ${check.name}`);
  if (typed.length === 0) {
    const types = [...new Set(named.map((file) => file.contentType))].join(', ');
    return fail(`${subject(named)} ${named.length === 1 ? 'is' : 'are'} ${types}, not ${mime}`);
  }
  if (small.length === 0) return fail(`${subject(typed)} over ${check.maxBytes} bytes`);
  return fail(`${found}, ${needed} needed`);
}

function sha256Outcome(check: Extract<CriterionCheck, { type: 'sha256' }>, files: readonly DeliveredFile[]): Outcome {
  const file = deliverable(files, check.file);
  if (isOutcome(file)) return file;
  const actual = file.sha256.toLowerCase();
  return actual === check.digest
    ? pass(`${file.filename} has the expected SHA-256`)
    : fail(`${file.filename} has SHA-256 ${actual}, not the one expected`);
}

async function jsonSchemaOutcome(
  check: JsonSchemaCheck,
  files: readonly DeliveredFile[],
  budget: { leftMs: number },
): Promise<Outcome> {
  // The checks were judged at creation; judged again here, so a stored one that skipped it fetches nothing.
  const verdict = schemaVerdict(check.schema);
  if ('problem' in verdict) return fail(`the schema is refused: ${verdict.problem}`);
  const file = deliverable(files, check.file);
  if (isOutcome(file)) return file;
  const tooBig = (size: number) =>
    fail(`${file.filename} is ${size} bytes, over the ${MAX_JSON_BYTES} a schema check reads`);
  if (file.size > MAX_JSON_BYTES) return tooBig(file.size);
  const bytes = await file.read();
  if (bytes.length > MAX_JSON_BYTES) return tooBig(bytes.length);
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    return fail(`${file.filename} is not JSON: ${messageOf(error)}`);
  }
  const limit = `${file.filename}: checking took longer than ${VALIDATION_BUDGET_MS / 1000} s`;
  if (budget.leftMs <= 0) return fail(`${limit} (the submission's schema checks together)`);
  const started = performance.now();
  let valid: boolean;
  try {
    valid = bounded(() => verdict.validate(data) === true, budget.leftMs);
  } catch (error) {
    if (error instanceof OutOfTime) return fail(limit);
    // Deep enough nesting overflows the stack of a recursive schema: the document is not accepted.
    return fail(`${file.filename}: could not be checked: ${messageOf(error)}`);
  } finally {
    budget.leftMs -= performance.now() - started;
  }
  if (valid) return pass(`${file.filename} matches the schema`);
  return fail(`${file.filename}: ${explain(verdict.validate.errors?.[0])}`);
}

/** ajv's first error (allErrors is off): where in the document, and what it failed. */
function explain(error: ErrorObject | undefined): string {
  if (!error) return 'does not match the schema';
  const where = error.instancePath || '(the document)';
  const extra = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
  return `${where} ${error.message ?? `fails ${error.keyword}`}${extra}`;
}

async function httpOutcome(cfg: Config, check: HttpGetCheck): Promise<Outcome> {
  const expected = check.status ?? 200;
  let url: URL;
  try {
    url = new URL(check.url);
  } catch {
    return fail('not a URL');
  }
  let answer: Awaited<ReturnType<typeof guardedGet>>;
  try {
    answer = await guardedGet(cfg, url, { ...HTTP, accept: check.contentType ?? '*/*' });
  } catch (error) {
    return fail(`could not fetch it: ${messageOf(error).replace(/^url: /, '')}`);
  }
  if (answer.status >= 300 && answer.status < 400)
    return fail(`answered ${answer.status}, redirecting to ${locationOf(answer.headers)}; redirects are not followed`);
  if (answer.status !== expected) return fail(`answered ${answer.status}, not ${expected}`);
  const header = answer.headers['content-type'];
  const media = (Array.isArray(header) ? header[0] : header)?.split(';')[0]?.trim().toLowerCase() || undefined;
  if (check.contentType !== undefined && media !== check.contentType.trim().toLowerCase())
    return fail(`answered ${answer.status} as ${media ?? 'no content type'}, not ${check.contentType}`);
  return pass(`answered ${answer.status}${media ? ` (${media})` : ''}`);
}
