// One HTTP exchange with the API: URL and query, JSON or multipart bodies, the Idempotency-Key,
// bounded retries of 429/503 after Retry-After, and every failure as a TaskmarketError. It knows
// nothing of signing in: the caller hands it a token (auth.ts decides which).
import { TaskmarketError } from './errors.js';

export interface HttpConfig {
  baseUrl: string;
  fetch: typeof globalThis.fetch;
  /** How many times a 429 or 503 is retried. */
  maxRetries: number;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface HttpRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue> | undefined;
  /** A JSON value, or FormData for uploads. */
  body?: unknown;
  token?: string | undefined;
  idempotencyKey?: string | undefined;
  signal?: AbortSignal | undefined;
}

// Stripe's rule: a server asking for a longer wait than this is not waited for — the caller decides.
const MAX_RETRY_DELAY_SECONDS = 60;
// When a 429/503 comes without Retry-After: 1 s, 2 s, 4 s…
const fallbackDelay = (attempt: number) => Math.min(2 ** attempt, 8);

export function urlOf(config: HttpConfig, path: string, query?: Record<string, QueryValue>): string {
  // Under the base URL's own path, if it has one (https://example.com/taskmarket/ + /api/…).
  const base = new URL(config.baseUrl);
  const url = new URL(`${base.pathname.replace(/\/+$/, '')}${path}`, base);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

/** Seconds to wait from a Retry-After header (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** Sends the request, retrying 429/503; answers the successful Response, or throws a TaskmarketError. */
export async function send(config: HttpConfig, request: HttpRequest): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.token) headers.authorization = `Bearer ${request.token}`;
  if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
  let body: BodyInit | undefined;
  if (request.body instanceof FormData)
    body = request.body; // fetch sets the multipart boundary
  else if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['content-type'] = 'application/json';
  }
  const url = urlOf(config, request.path, request.query);
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await config.fetch(url, { method: request.method, headers, body, signal: request.signal });
    } catch (cause) {
      throw new TaskmarketError({
        status: 0,
        error: `Could not reach ${new URL(config.baseUrl).origin}: ${(cause as Error)?.message ?? cause}`,
        cause,
      });
    }
    if (response.ok) return response;
    if ((response.status === 429 || response.status === 503) && attempt < config.maxRetries) {
      const wait = retryAfterSeconds(response.headers.get('retry-after')) ?? fallbackDelay(attempt);
      if (wait <= MAX_RETRY_DELAY_SECONDS) {
        await response.body?.cancel();
        await sleep(wait * 1000, request.signal);
        continue;
      }
    }
    throw await errorOf(response);
  }
}

/** The API's `{ error, details? }` as a TaskmarketError; a body of another shape keeps the status. */
export async function errorOf(response: Response): Promise<TaskmarketError> {
  const text = await response.text().catch(() => '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const body = parsed as { error?: unknown; details?: unknown } | undefined;
  const error =
    typeof body?.error === 'string'
      ? body.error
      : text.trim().slice(0, 200) || response.statusText || `HTTP ${response.status}`;
  const details = Array.isArray(body?.details) ? body.details.map(String) : undefined;
  return new TaskmarketError({ status: response.status, error, details });
}

/** A fresh Idempotency-Key, a v4 UUID (crypto.randomUUID exists only in secure contexts in browsers). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // RFC 9562: version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 9562: variant 10
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
