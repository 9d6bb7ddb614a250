// Request parsing: bounded JSON bodies and zod validation that names every problem by field.
import type { z } from 'zod';
import { ApiError } from '../errors';
import { describeIssues } from '../fields';

export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ApiError(400, 'Validation failed', describeIssues(result.error));
  return result.data;
}

/** Reads the body as text, refusing more than `maxBytes` without buffering past the limit. */
export async function readText(request: Request, maxBytes: number): Promise<string> {
  return readStreamText(request.body, request.headers.get('content-length'), maxBytes);
}

/** `readText` for a raw body stream and its declared length (lib code that never sees the Request). */
export async function readStreamText(
  body: ReadableStream<Uint8Array> | null,
  contentLength: string | null,
  maxBytes: number,
): Promise<string> {
  const declared = Number(contentLength ?? '0');
  if (declared > maxBytes) throw new ApiError(413, `Body larger than ${maxBytes} bytes`);
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new ApiError(413, `Body larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function readJson(request: Request, maxBytes: number): Promise<unknown> {
  const value = await readJsonStream(request.body, request.headers, maxBytes);
  if (value === undefined) throw new ApiError(400, 'Request body must be JSON');
  return value;
}

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * A JSON body, or undefined when none was sent. Any other Content-Type is 415 before a byte is
 * read (docs/api.md#conventions): a cross-site form can send text/plain without a preflight, never JSON.
 */
export async function readJsonStream(
  body: ReadableStream<Uint8Array> | null,
  headers: Headers,
  maxBytes: number,
): Promise<unknown> {
  const type = headers.get('content-type');
  if (type !== null && !JSON_TYPE.test(type)) throw unsupportedType();
  const text = await readStreamText(body, headers.get('content-length'), maxBytes);
  if (text.trim() === '') return undefined;
  if (type === null) throw unsupportedType();
  return parseJsonText(text);
}

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/** A form body as a record; a key given twice is kept as an array, for the schema to refuse. */
export async function readForm(request: Request, maxBytes: number): Promise<Record<string, string | string[]>> {
  if (!FORM_TYPE.test(request.headers.get('content-type') ?? '')) {
    throw new ApiError(415, 'Content-Type must be application/x-www-form-urlencoded');
  }
  const form: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(await readText(request, maxBytes))) {
    const seen = form[key];
    form[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return form;
}

const unsupportedType = () => new ApiError(415, 'Content-Type must be application/json');

export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'Malformed JSON');
  }
}
