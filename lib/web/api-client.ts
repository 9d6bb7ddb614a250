// The dashboard's way to call the API from the browser: same-origin fetch (the session cookie and
// the Origin header ride along, docs/api.md#origins), JSON in and out, and every failure turned into an
// ApiRequestError carrying the API's `{ error, details }` — never a bare "Failed to fetch".

export class ApiRequestError extends Error {
  override name = 'ApiRequestError';
  constructor(
    readonly status: number,
    message: string,
    readonly details: string[] = [],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

type Init = Omit<RequestInit, 'body'> & { json?: unknown; body?: BodyInit };

export async function apiFetch<T>(path: string, init: Init = {}): Promise<T> {
  const { json, headers, ...rest } = init;
  const body = json === undefined ? init.body : JSON.stringify(json);
  let response: Response;
  try {
    response = await fetch(path, {
      credentials: 'same-origin',
      ...rest,
      body,
      headers: {
        accept: 'application/json',
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
    });
  } catch {
    throw new ApiRequestError(0, 'Could not reach taskmarket. Check your connection and try again.');
  }
  return readApiResponse<T>(response.status, await response.text(), response.headers.get('retry-after'));
}

/** Shared by fetch and XMLHttpRequest (uploads): parses a body and throws for error statuses. */
export function readApiResponse<T>(status: number, text: string, retryAfter: string | null): T {
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (status >= 200 && status < 300) return data as T;
  const body = (data ?? {}) as { error?: unknown; details?: unknown };
  const message = typeof body.error === 'string' ? body.error : `Request failed (${status})`;
  const details = Array.isArray(body.details) ? body.details.filter((d): d is string => typeof d === 'string') : [];
  const seconds = retryAfter ? Number(retryAfter) : undefined;
  throw new ApiRequestError(status, message, details, Number.isFinite(seconds) ? seconds : undefined);
}

/** A sentence for people: the API's message, plus what to do about the common statuses. */
export function describeApiError(error: unknown): string {
  if (!(error instanceof ApiRequestError)) return error instanceof Error ? error.message : String(error);
  if (error.status === 401) return `${error.message}. Please sign in again.`;
  if (error.status === 429) {
    const wait = error.retryAfterSeconds ? ` Try again in ${error.retryAfterSeconds} s.` : ' Try again shortly.';
    return `Too many requests.${wait}`;
  }
  if (error.status === 503)
    return `${error.message}. The service is busy or a dependency is down; try again in a moment.`;
  return error.message;
}
