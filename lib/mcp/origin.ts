// The MCP transport's DNS-rebinding rule (docs/api.md#mcp): a present Origin must be exactly one of
// the app's configured origins (APP_ORIGINS, or those derived from SIWE_DOMAIN). Unlike the cookie
// check of lib/http/origin.ts, the request's own Host does not vouch for it: under DNS rebinding the
// attacker's page and its Host header carry the attacker's own name.
import type { Config } from '../config';
import { ApiError } from '../errors';

/** 403 for a browser page of any other origin; a client without Origin (not a browser) passes. */
export function assertMcpOrigin(request: Request, cfg: Config): void {
  const origin = request.headers.get('origin');
  if (origin === null) return;
  if (cfg.appOrigins.includes(origin.toLowerCase().replace(/\/+$/, ''))) return;
  throw new ApiError(403, 'Origin not allowed for MCP: a browser page may call it only from this app\'s own origins (APP_ORIGINS)');
}
