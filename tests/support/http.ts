// Calls exported route handlers with real Request objects, as Next.js would.
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { collectAfterResponse } from '@/lib/http/after-response';
import { documentViolation } from './openapi-conformance';

export const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 256)).join('.')}`;

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface CallOptions {
  method?: string;
  path?: string;
  /** A value to send as JSON, or a raw string body. */
  body?: unknown;
  token?: string;
  cookie?: string;
  headers?: Record<string, string>;
  params?: Record<string, string>;
  /**
   * The socket address server.ts would record; a random one per call by default, so per-IP limits stay out of the way.
   */
  ip?: string;
  /** The scheme and host the request is made to, as Next.js sees it; `http://localhost:3000` by default. */
  base?: string;
  /**
   * Run the work the route leaves for once the response has gone (its webhooks), as Next.js would, before
   * answering; without it that work is left to the sweep, as it is for a handler called outside Next.js.
   */
  afterResponse?: true;
}

export interface CallResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export async function call<T = any>(handler: Handler, options: CallOptions = {}): Promise<CallResult<T>> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set('authorization', `Bearer ${options.token}`);
  if (options.cookie) headers.set('cookie', options.cookie);
  if (!headers.has(SOCKET_ADDRESS_HEADER)) headers.set(SOCKET_ADDRESS_HEADER, stampedAddress(options.ip ?? randomIp()));
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const request = new Request(`${options.base ?? 'http://localhost:3000'}${options.path ?? '/'}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  });
  const run = () => handler(request, { params: Promise.resolve(options.params ?? {}) });
  const result = await readResult<T>(await (options.afterResponse ? collectAfterResponse(run) : run()));
  // The document cannot drift from what the routes answer (docs/api.md#openapi).
  const violation = documentViolation(
    handler,
    request.method,
    result.status,
    result.headers.get('content-type'),
    result.body,
  );
  if (violation) throw new Error(violation);
  return result;
}

/** A response as tests read it: status, headers, and the body parsed when it is JSON. */
export async function readResult<T = any>(response: Response): Promise<CallResult<T>> {
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Non-JSON bodies (file downloads) stay text.
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}
