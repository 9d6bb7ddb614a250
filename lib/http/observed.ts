// What every API answer gets around its handler (docs/api.md#observability): the request id (kept from a valid
// incoming `x-request-id`, else new) on the response and in every log line, a span named by the
// route template with status and caller role, and the request counted and timed by route. The
// route is the template (route-label.ts), never the path; the method is one of the seven Next.js
// calls a route handler with (any other is answered 400 before it).
import { after } from 'next/server';
import { config } from '../config';
import { flushSpans, inSpan, tracingEnabled } from '../observability/tracing';
import { metrics } from '../observability/metrics';
import { requestEnded, requestStarted } from '../observability/in-flight';
import { routeLabel } from './route-label';
import { type RequestContext, requestIdFrom, withRequestContext } from '../observability/request-context';

type NextContext = { params: Promise<Record<string, string | string[]>> };
export type Handler = (request: Request, next?: NextContext) => Promise<Response>;

/** A handler observed as below, which still offers the bare one (`unobserved`) for in-process calls. */
export type ObservedHandler = Handler & { readonly unobserved: Handler };

/** `handler` with the request id, span and metrics of docs/api.md#observability around it. */
export function observed(handler: Handler): ObservedHandler {
  const wrapped: Handler = async (request, next) => {
    const started = performance.now();
    requestStarted();
    const context: RequestContext = { requestId: requestIdFrom(request.headers), inFlight: true };
    const route = routeLabel(new URL(request.url).pathname);
    const { method } = request;
    return withRequestContext(context, () =>
      inSpan(
        `${method} ${route}`,
        { kind: 'request', attributes: { 'http.request.method': method, 'http.route': route } },
        async (span) => {
          const response = withHeader(await handler(request, next), 'x-request-id', context.requestId);
          span?.setAttributes({
            'http.response.status_code': response.status,
            'taskmarket.caller.role': context.role ?? 'anonymous',
          });
          const m = metrics();
          m.requests.inc({ method, route, status: response.status });
          m.duration.observe({ method, route }, (performance.now() - started) / 1000);
          return response;
        },
      ),
    ).finally(() => {
      context.inFlight = false;
      requestEnded();
      if (tracingEnabled() && config().onVercel) flushAfterResponse();
    });
  };
  return Object.assign(wrapped, { unobserved: handler });
}

// Response.redirect() and fetched responses have immutable headers: those are copied first.
function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set(name, value);
    return copy;
  }
}

// Vercel freezes the function once the response is out: the request's spans are sent in `after`.
function flushAfterResponse(): void {
  try {
    after(flushSpans);
  } catch {
    // Not inside a Next.js request.
  }
}
