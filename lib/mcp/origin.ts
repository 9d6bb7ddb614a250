// The MCP transport's DNS-rebinding rule (docs/api.md#mcp, docs/security.md#mcp-origins): a present
// Origin that is not an allowed origin is 403. Allowed: the app's own origins and the browser-based
// clients' an operator lists in MCP_ALLOWED_ORIGINS — exact origins, no pattern, so a page on a
// rebound name, an opaque `null` or any other site is refused whatever token it carries. A client
// that sends no Origin (not a browser) passes; CORS preflights answer for every origin
// (docs/api.md#cors), and this rule then decides the request itself.
import type { Config } from '../config';
import { ApiError } from '../errors';

/** 403 for a present Origin outside the app's own and MCP_ALLOWED_ORIGINS. */
export function assertMcpOrigin(request: Request, cfg: Config): void {
  const origin = request.headers.get('origin');
  if (origin === null || cfg.mcpOrigins.includes(origin)) return;
  throw new ApiError(403, "Origin not allowed for MCP: this app's own origins and MCP_ALLOWED_ORIGINS are");
}
