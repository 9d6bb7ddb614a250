// A Request's body within a byte limit: as text, as JSON (415 for another type) or as a form.
import { ApiError } from '../errors';
import { readJsonStream, readStreamText } from '../uploads/body';

/** Reads the body as text, refusing more than `maxBytes` without buffering past the limit. */
export async function readText(request: Request, maxBytes: number): Promise<string> {
  return readStreamText(request.body, request.headers.get('content-length'), maxBytes);
}

export async function readJson(request: Request, maxBytes: number): Promise<unknown> {
  const value = await readJsonStream(request.body, request.headers, maxBytes);
  if (value === undefined) throw new ApiError(400, 'Request body must be JSON');
  return value;
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
