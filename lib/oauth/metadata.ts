// Discovery documents (docs/api.md#tokens): the authorization server's metadata (RFC 8414), the
// protected-resource metadata (RFC 9728) of each resource — /api/mcp and the REST API — all named
// from the public origin, and the challenges a 401 or a 403 carries to them.
import type { Config } from '../config';
import { ApiError } from '../errors';
import { issuerOf, RESOURCE_NAMES, type ResourceName, resourceUri } from '../auth/resources';
import { DEFAULT_SCOPES, formatScopes, SCOPES, type Scope } from './scopes';

export { issuerOf } from '../auth/resources';

export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

export function authorizationServerMetadata(cfg: Config) {
  const issuer = issuerOf(cfg);
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/api/oauth/token`,
    registration_endpoint: `${issuer}/api/oauth/register`,
    revocation_endpoint: `${issuer}/api/oauth/revoke`,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    // A client_id may be the https URL of the client's own metadata document
    // (docs/api.md#client-id-metadata-documents).
    client_id_metadata_document_supported: true,
    service_documentation: `${issuer}/docs`,
    // RFC 9728 §4: the resources this server issues tokens for (docs/api.md#audience).
    protected_resources: RESOURCE_NAMES.map((name) => resourceUri(issuer, name)),
  };
}

/** The protected-resource metadata of `name`, served at its well-known URI (RFC 9728 §3.1). */
export function protectedResourceMetadata(cfg: Config, name: ResourceName = 'mcp') {
  const issuer = issuerOf(cfg);
  return {
    resource: resourceUri(issuer, name),
    authorization_servers: [issuer],
    // docs/api.md#least-privilege: the least an agent needs, as the MCP authorization spec advises — a
    // client that falls back to this list (the Inspector on its first sign-in) asks for little. The
    // authorization server's metadata lists every scope.
    scopes_supported: [...DEFAULT_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: name === 'mcp' ? 'taskmarket MCP' : 'taskmarket API',
    resource_documentation: `${issuer}/docs`,
  };
}

/**
 * Which resource's metadata a request asks for, by the path it was made to (RFC 9728 §3.1): the
 * resource's path after the well-known prefix; the prefix alone, the MCP endpoint's as it always was.
 * A path naming no resource of ours is 404 (a client must not take another resource's document).
 */
export function metadataResourceOf(request: Request): ResourceName {
  const path = new URL(request.url).pathname;
  const suffix = path.startsWith(PROTECTED_RESOURCE_PATH) ? path.slice(PROTECTED_RESOURCE_PATH.length) : '';
  const name = suffix === '' ? 'mcp' : RESOURCE_NAMES.find((candidate) => resourceUri('', candidate) === suffix);
  if (!name) throw new ApiError(404, 'No protected resource has its metadata here');
  return name;
}

/** Where a resource's metadata is: the well-known prefix, then the resource's path (RFC 9728 §3.1). */
export const metadataUrlOf = (cfg: Config, name: ResourceName) =>
  resourceUri(`${issuerOf(cfg)}${PROTECTED_RESOURCE_PATH}`, name);

/**
 * The challenge a 401 carries, so a client can find how to authorize (RFC 9728 §5.1), and which
 * scopes to ask for (MCP authorization, scope selection): the least an agent needs, plus what this
 * route needs (docs/api.md#least-privilege).
 */
export const bearerChallenge = (cfg: Config, name: ResourceName, needed: readonly Scope[] = [], extra = '') =>
  `Bearer resource_metadata="${metadataUrlOf(cfg, name)}", scope="${withScopes(DEFAULT_SCOPES, needed)}"${extra}`;

/**
 * The challenge of a 403 for a token without the scope a request needs (RFC 6750 §3.1, MCP
 * authorization, scope challenge): the scopes it holds plus the one needed, so a client re-authorizing
 * for them loses nothing it had (docs/api.md#step-up).
 */
export const scopeChallenge = (cfg: Config, name: ResourceName, scope: string) =>
  `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${metadataUrlOf(cfg, name)}"`;

/** `held` and `needed` as one scope string, in the canonical order. */
export const withScopes = (held: readonly Scope[], needed: readonly Scope[]): string =>
  formatScopes(SCOPES.filter((scope) => held.includes(scope) || needed.includes(scope)));
