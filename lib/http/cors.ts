// CORS for browser-based OAuth and MCP clients (docs/api.md#cors): the two metadata documents,
// register, token, revoke and /api/mcp may be called from a page of any origin, never with
// credentials — so no cookie of ours rides along and no cookie route is reachable this way. A route
// opts in with route()'s `cors` option (its answers, errors included) and exports `preflight(…)` as
// OPTIONS. Whether the request itself is then served is still the route's own rule (/api/mcp's
// Origin check: lib/mcp/origin.ts).
import { type Handler, observed } from './observed';
import type { Method } from './methods';

/** What a browser needs to read a cross-origin answer: any origin, and the two headers a client acts on. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  // A 401's challenge names where to authorize (RFC 9728 §5.1); the request id is what a bug report quotes.
  'Access-Control-Expose-Headers': 'WWW-Authenticate, x-request-id',
};

/** The request headers these endpoints read beyond the CORS-safelisted ones. */
export const CORS_ALLOWED_HEADERS = 'authorization, content-type, mcp-protocol-version';

/** How long a browser may reuse a preflight's answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/** The OPTIONS handler of a CORS route: `export const OPTIONS = preflight('POST')`. */
export function preflight(...methods: readonly Method[]): Handler {
  const headers = {
    ...CORS_HEADERS,
    'Access-Control-Allow-Methods': methods.join(', '),
    'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS,
    'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
  };
  // Nothing read, nothing changed: the preflight asks only whether the browser may send the request.
  return observed(async () => new Response(null, { status: 204, headers }));
}
