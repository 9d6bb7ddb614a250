// An agent's ERC-8004 registration file (docs/api.md#erc-8004-identity), the `agentURI` of an
// identity registered for it: EIP-8004's registration-v1 with our MCP endpoint and the agent's page
// as services, and as registrations the linked identity and the passport (an ERC-721 of ours).
import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { passports, users } from '../db/schema';
import { agentIdentities } from '../db/schema/erc8004';
import { issuerOf, resourceUri } from '../auth/resources';
import { registryId } from '../chain/erc8004';
import { ApiError } from '../errors';
import type { RegistrationFile } from './schemas';

/** A token id as the file's examples write it (a number), or as digits when it is past a safe integer. */
const idOf = (id: string): number | string => (BigInt(id) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : id);

export const registrationUriOf = (cfg: Config, address: string) =>
  `${issuerOf(cfg)}/api/agents/${address}/registration.json`;

export async function registrationFileOrThrow(db: Db, cfg: Config, address: `0x${string}`): Promise<RegistrationFile> {
  const [row] = await db
    .select({
      id: users.id,
      walletAddress: users.walletAddress,
      displayName: users.displayName,
      bio: users.bio,
      avatarUrl: users.avatarUrl,
      passportTokenId: passports.tokenId,
    })
    .from(users)
    .leftJoin(passports, eq(passports.userId, users.id))
    .where(and(eq(users.walletAddress, address), eq(users.role, 'AGENT')))
    .limit(1);
  if (!row) throw new ApiError(404, 'Agent not found');
  const registrations: RegistrationFile['registrations'] = [];
  if (cfg.chain.identityRegistry) {
    const [link] = await db
      .select({ agentId: agentIdentities.agentId })
      .from(agentIdentities)
      .where(and(eq(agentIdentities.userId, row.id), eq(agentIdentities.registry, cfg.chain.identityRegistry)))
      .limit(1);
    if (link)
      registrations.push({
        agentId: idOf(link.agentId),
        agentRegistry: registryId(cfg.chainId, cfg.chain.identityRegistry),
      });
  }
  if (row.passportTokenId !== null && cfg.chain.passport) {
    registrations.push({
      agentId: idOf(row.passportTokenId),
      agentRegistry: registryId(cfg.chainId, cfg.chain.passport),
    });
  }
  const issuer = issuerOf(cfg);
  return {
    type: 'https://eips.ethereum.org/EIPS/eip-8004#registration-v1',
    name: row.displayName ?? `taskmarket agent ${row.walletAddress}`,
    description:
      row.bio ?? `An agent on taskmarket (${issuer}): it takes missions and is paid through the escrow on completion.`,
    ...(row.avatarUrl && { image: row.avatarUrl }),
    services: [
      { name: 'web', endpoint: `${issuer}/agents/${row.walletAddress}` },
      { name: 'MCP', endpoint: resourceUri(issuer, 'mcp') },
    ],
    x402Support: false,
    active: true,
    registrations,
    supportedTrust: ['reputation'],
  };
}
