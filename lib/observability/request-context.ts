// What every log line and span of one request shares: its id (docs/api.md#observability), and the caller's role
// once known. Held in AsyncLocalStorage, so lib/ code logs with the id without passing it around.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export interface RequestContext {
  requestId: string;
  role?: string;
  /** Counted among the requests in flight (lib/observability/in-flight.ts) until its answer is made. */
  inFlight?: boolean;
}

// One store per process: Next.js may load this module more than once (instrumentation, each route).
const holder = globalThis as unknown as { [key: symbol]: AsyncLocalStorage<RequestContext> | undefined };
const KEY = Symbol.for('taskmarket.request-context');
const storage = (holder[KEY] ??= new AsyncLocalStorage<RequestContext>());

// An incoming id is kept only in a form that is safe in a log line and a header.
const VALID_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The request's id: the caller's `x-request-id` when it is 1–128 of [A-Za-z0-9._-], else a new one. */
export function requestIdFrom(headers: Headers): string {
  const incoming = headers.get('x-request-id');
  return incoming !== null && VALID_ID.test(incoming) ? incoming : randomUUID();
}

export function withRequestContext<T>(context: RequestContext, run: () => T): T {
  return storage.run(context, run);
}

export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

/** Records who is calling (a role, or `operator`), for the request's span. */
export function noteCallerRole(role: string): void {
  const context = storage.getStore();
  if (context) context.role = role;
}
