// Discovery documents (docs/api.md#tokens): the authorization server's metadata (RFC 8414) and the MCP
// endpoint's protected-resource metadata (RFC 9728), both named from the public origin.
import type { Config } from '../config';
import { resourceOf } from './authorization';
import { SCOPES } from './scopes';

/** The issuer: the first public origin (APP_ORIGINS, or the SIWE domain's). */
export const issuerOf = (cfg: Config): string => cfg.appOrigins[0]!;

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
    // A client_id may be the https URL of the client's own metadata document (docs/api.md#client-id-metadata-documents).
    client_id_metadata_document_supported: true,
    service_documentation: `${issuer}/docs`,
  };
}

export function protectedResourceMetadata(cfg: Config) {
  const issuer = issuerOf(cfg);
  return {
    resource: resourceOf(issuer),
    authorization_servers: [issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'taskmarket',
    resource_documentation: `${issuer}/docs`,
  };
}

/** The challenge a 401 carries, so an MCP client can find how to authorize (RFC 9728 §5.1). */
export const bearerChallenge = (cfg: Config, extra = '') =>
  `Bearer resource_metadata="${issuerOf(cfg)}${PROTECTED_RESOURCE_PATH}/api/mcp"${extra}`;
