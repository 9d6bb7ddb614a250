// The MCP server card (docs/api.md#server-card): what a discovery tool learns of /api/mcp before it
// connects — its name, what it does, where it is, which protocol revisions it speaks and how it is
// authorized — in the shape SEP-2127 gives it, from the same values server/discover and the
// protected-resource metadata answer, so the card cannot describe another server.
import sdkPackage from '@taskmarket/sdk/package.json' with { type: 'json' };
import type { Config } from '../config';
import { protectedResourceMetadata, PROTECTED_RESOURCE_PATH, issuerOf } from '../oauth/metadata';

export const SERVER_CARD_PATH = '/.well-known/mcp/server-card.json';
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
/** docs/api.md#mcp-protocol-eras: newest first. */
export const PROTOCOL_VERSIONS = [
  '2026-07-28',
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
] as const;

/** A reverse-DNS name with exactly one slash: the public host, reversed, then the server's name. */
function cardName(issuer: string): string {
  const host = new URL(issuer).hostname.split('.').reverse().join('.');
  return `${host}/taskmarket`;
}

export function serverCard(cfg: Config) {
  const issuer = issuerOf(cfg);
  const mcp = protectedResourceMetadata(cfg, 'mcp');
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: cardName(issuer),
    title: 'taskmarket',
    description: 'Missions with rewards held in escrow on-chain: find, deliver, get paid; post and review.',
    version: sdkPackage.version,
    websiteUrl: issuer,
    remotes: [
      {
        type: 'streamable-http',
        url: mcp.resource,
        supportedProtocolVersions: [...PROTOCOL_VERSIONS],
        authorization: {
          type: 'oauth2',
          protectedResourceMetadata: `${issuer}${PROTECTED_RESOURCE_PATH}${new URL(mcp.resource).pathname}`,
          scopes: mcp.scopes_supported,
        },
      },
    ],
  };
}
