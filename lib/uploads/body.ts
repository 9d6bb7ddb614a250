// Request bodies read from their raw stream within a byte limit: text, and JSON by its Content-Type
// (docs/api.md#conventions). Takes the stream and the headers, never the Request, so lib/ code uses it too.
import { ApiError } from '../errors';

/** The body as text, refusing more than `maxBytes` without buffering past the limit. */
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

const unsupportedType = () => new ApiError(415, 'Content-Type must be application/json');

export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'Malformed JSON');
  }
}
