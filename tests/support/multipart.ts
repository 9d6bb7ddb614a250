// Hand-built multipart/form-data bodies, so tests control every byte: hostile file names, lying
// content types, bodies cut short. Sent to route handlers as real Requests.
import { createHash, randomBytes } from 'node:crypto';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import type { CallResult } from './http';
import { randomIp, readResult } from './http';

export interface FilePart {
  filename: string;
  contentType?: string;
  content: Buffer | string;
  /** Form field name; `files` unless a test says otherwise. */
  name?: string;
  /** Replaces the whole Content-Disposition value (hostile encodings). */
  disposition?: string;
}

export function multipartBody(fields: Record<string, string>, files: FilePart[]) {
  const boundary = `----taskmarket${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    const disposition = file.disposition ?? `form-data; name="${file.name ?? 'files'}"; filename="${file.filename}"`;
    const type = file.contentType === undefined ? '' : `Content-Type: ${file.contentType}\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface UploadOptions {
  token?: string;
  params?: Record<string, string>;
  fields?: Record<string, string>;
  files?: FilePart[];
  /** Send only the first n bytes of the body (a client that went away). */
  truncateAt?: number;
  headers?: Record<string, string>;
}

export async function upload<T = any>(handler: Handler, options: UploadOptions): Promise<CallResult<T>> {
  const { body, contentType } = multipartBody(options.fields ?? {}, options.files ?? []);
  const bytes = options.truncateAt === undefined ? body : body.subarray(0, options.truncateAt);
  const headers = new Headers({
    'content-type': contentType,
    [SOCKET_ADDRESS_HEADER]: stampedAddress(randomIp()),
    ...options.headers,
  });
  if (options.token) headers.set('authorization', `Bearer ${options.token}`);
  const request = new Request('http://localhost:3000/api/upload', {
    method: 'POST',
    headers,
    body: new Uint8Array(bytes),
  });
  return readResult<T>(await handler(request, { params: Promise.resolve(options.params ?? {}) }));
}

export const sha256 = (content: Buffer | string) => createHash('sha256').update(content).digest('hex');

/** A tiny valid PNG (1×1) followed by unique bytes in a trailing chunk, so each test's file is new. */
export function png(extra = randomBytes(16)): Buffer {
  const base = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
    'base64',
  );
  return Buffer.concat([base, extra]);
}

/**
 * A PNG padded with random bytes to exactly `size`. Random bytes hold no `<`, so the padding can
 * never spell a tag the upload guard refuses as an HTML/SVG polyglot (one 10 MB file in ~1,500 did).
 */
export function pngOfSize(size: number): Buffer {
  const head = png();
  const padding = randomBytes(size - head.length).map((byte) => (byte === 0x3c ? 0x3d : byte));
  return Buffer.concat([head, padding]);
}

export const pdf = () =>
  Buffer.from(`%PDF-1.4\n% ${randomBytes(8).toString('hex')}\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n`);
export const uniqueText = (prefix = 'notes') => `${prefix} ${randomBytes(8).toString('hex')}\n`;
