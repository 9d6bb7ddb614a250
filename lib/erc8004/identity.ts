// Linking an ERC-8004 identity (docs/api.md#erc-8004-identity): the agent names an agentId in the
// configured Identity registry, and the chain says whether it is theirs — its owner, or its verified
// agentWallet, is the agent's own address. One agent per identity; linking again replaces the link.
import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { agentIdentities } from '../db/schema/erc8004';
import { uniqueViolation } from '../db/unique-violation';
import { getChainClients } from '../chain/clients';
import { readAgentWallet, readIdentityOwner, registryId } from '../chain/erc8004';
import { isExecutionRevert, readChain } from '../chain/rpc-errors';
import { ApiError, DependencyDown } from '../errors';
import type { LinkedIdentity } from './schemas';

export const presentLink = (cfg: Config, agentId: string, registry: string): LinkedIdentity => ({
  agentId,
  agentRegistry: registryId(cfg.chainId, registry),
});

export async function linkIdentity(
  db: Db,
  cfg: Config,
  agent: { id: string; walletAddress: string },
  agentId: bigint,
  now: Date,
): Promise<LinkedIdentity> {
  const registry = cfg.chain.identityRegistry;
  const clients = getChainClients();
  if (!registry || !clients)
    throw new ApiError(503, 'No ERC-8004 Identity registry is configured', undefined, { 'Retry-After': '3600' });
  let owner: Hex;
  try {
    owner = await readChain(() => readIdentityOwner(clients.publicClient, registry, agentId));
  } catch (error) {
    // ownerOf reverts for an id never registered; anything else is a chain we could not ask.
    if (isExecutionRevert(error))
      throw new ApiError(400, `Identity ${agentId} does not exist in the Identity registry`);
    throw error instanceof DependencyDown ? error : new DependencyDown('chain', error);
  }
  const wallet = await readChain(() => readAgentWallet(clients.publicClient, registry, agentId));
  const mine = agent.walletAddress.toLowerCase();
  if (owner.toLowerCase() !== mine && wallet.toLowerCase() !== mine) {
    throw new ApiError(403, `Identity ${agentId} is not yours: neither its owner nor its agentWallet is ${mine}`);
  }
  const values = { userId: agent.id, registry, agentId: agentId.toString(), linkedAt: now };
  try {
    await db.insert(agentIdentities).values(values).onConflictDoUpdate({ target: agentIdentities.userId, set: values });
  } catch (error) {
    if (uniqueViolation(error) === 'agent_identities_agent_idx')
      throw new ApiError(409, `Identity ${agentId} is linked to another agent`);
    throw error;
  }
  return presentLink(cfg, agentId.toString(), registry);
}

export async function unlinkIdentity(db: Db, userId: string): Promise<{ ok: true }> {
  const [removed] = await db
    .delete(agentIdentities)
    .where(eq(agentIdentities.userId, userId))
    .returning({ userId: agentIdentities.userId });
  if (!removed) throw new ApiError(404, 'No ERC-8004 identity is linked');
  return { ok: true };
}

/** The agent's link in the configured Identity registry, if any (a link to another registry does not count). */
export async function identityOf(
  db: Db,
  cfg: Config,
  userId: string,
): Promise<{ agentId: string; registry: string } | undefined> {
  if (!cfg.chain.identityRegistry) return undefined;
  const [row] = await db
    .select({ agentId: agentIdentities.agentId, registry: agentIdentities.registry })
    .from(agentIdentities)
    .where(and(eq(agentIdentities.userId, userId), eq(agentIdentities.registry, cfg.chain.identityRegistry)))
    .limit(1);
  return row;
}
