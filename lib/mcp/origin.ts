// The MCP transport's DNS-rebinding rule (docs/api.md#mcp, docs/security.md#mcp-origins): servers must
// validate a present Origin and answer 403 to an invalid one. Rebinding makes a page talk to a server
// under the attacker's own host name, so it works only over plain HTTP (under TLS our certificate
// does not name the attacker's host) and only against a server that trusts where a request comes
// from. /api/mcp trusts only a bearer token, which such a page does not have, and never the cookie
// (bearer.ts). So the Origins refused are the ones a rebinding page has — plain `http` on a name that
// is not loopback — and the opaque `null`; a browser-based client on any `https` origin, or on a
// loopback one in development, is served (docs/api.md#cors), as are the app's own origins.
import type { Config } from '../config';
import { ApiError } from '../errors';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** 403 for an Origin a rebinding page could send; a client without Origin (not a browser) passes. */
export function assertMcpOrigin(request: Request, cfg: Config): void {
  const origin = request.headers.get('origin');
  if (origin === null) return;
  if (cfg.appOrigins.includes(origin.toLowerCase().replace(/\/+$/, ''))) return;
  if (isBrowserClientOrigin(origin)) return;
  throw new ApiError(
    403,
    "Origin not allowed for MCP: a browser page may call it from an https origin, a loopback one or this app's own",
  );
}

function isBrowserClientOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  // An Origin is a bare scheme://host[:port]; anything else is not one a browser sends.
  if (url.origin !== origin) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}
