// The two protected resources (RFC 8707, RFC 9728; docs/api.md#audience): the MCP endpoint and the REST
// API. An OAuth access token is issued for one of them — its `aud` claim — and accepted there only.
// Beside the token reader (tokens.ts), which checks a token's audience on every request; OAuth names them.
import type { Config } from '../config';

export type ResourceName = 'mcp' | 'api';

const PATHS: Record<ResourceName, string> = { mcp: '/api/mcp', api: '/api' };

/** The issuer: the first public origin (APP_ORIGINS, or the SIWE domain's). */
export const issuerOf = (cfg: Config): string => cfg.appOrigins[0]!;

/** The resource's identifier, as the metadata names it and an access token's `aud` carries it. */
export const resourceUri = (issuer: string, name: ResourceName): string => `${issuer}${PATHS[name]}`;

export const RESOURCE_NAMES: readonly ResourceName[] = ['mcp', 'api'];

/**
 * Which resource a `resource` parameter names (RFC 8707 §2): absent, the MCP endpoint (the default);
 * the origin itself, too, as clients that name the server by its origin always got. Scheme and host
 * compare case-insensitively (the MCP authorization spec asks for that); anything else — another
 * host, a query, a fragment, another path — is undefined: `invalid_target`.
 */
export function namedResource(issuer: string, value: string | undefined): ResourceName | undefined {
  if (value === undefined) return 'mcp';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.origin !== new URL(issuer).origin || url.search !== '' || value.includes('#') || url.username || url.password)
    return undefined;
  if (url.pathname === '/' || url.pathname === PATHS.mcp) return 'mcp';
  return url.pathname === PATHS.api ? 'api' : undefined;
}
