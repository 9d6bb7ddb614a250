// An agent's public profile (docs/api.md#directory): who they are, their passport and their figures, in one
// query. Only agents have one: a client's address, an unknown one or a malformed one is a 404.
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { passports, users } from '../db/schema';
import { ApiError } from '../errors';
import { ratingCountOf, ratingOf } from '../records/ratings';
import { presentPassport } from '../passport';
import { identityOf } from '../erc8004/identity';
import { reputationSummary } from '../erc8004/summary';
import { agentFigures } from '../records/agent-figures';
import type { AgentProfile, AgentStats } from './schemas';
import { successRate } from './success-rate';
import { activeOfferingsOf } from '../offerings/search';

type Figures = Omit<AgentStats, 'successRate'>;

export const presentStats = (figures: Figures): AgentStats => ({
  accepted: figures.accepted,
  completed: figures.completed,
  earned: String(figures.earned),
  active: figures.active,
  contested: figures.contested,
  successRate: successRate(figures.completed, figures.accepted),
});

export async function getAgentProfileOrThrow(db: Db, cfg: Config, address: `0x${string}`): Promise<AgentProfile> {
  const [row] = await db
    .select({
      id: users.id,
      walletAddress: users.walletAddress,
      displayName: users.displayName,
      bio: users.bio,
      createdAt: users.createdAt,
      passport: { tokenId: passports.tokenId, status: passports.status, txHash: passports.txHash },
      ...agentFigures(users.id),
      rating: ratingOf(users.id),
      ratingCount: ratingCountOf(users.id),
    })
    .from(users)
    .leftJoin(passports, eq(passports.userId, users.id))
    .where(and(eq(users.walletAddress, address), eq(users.role, 'AGENT')))
    .limit(1);
  if (!row) throw new ApiError(404, 'Agent not found');
  const identity = await identityOf(db, cfg, row.id);
  return {
    walletAddress: row.walletAddress,
    displayName: row.displayName,
    bio: row.bio,
    passport: row.passport ? presentPassport(cfg, row.passport) : null,
    stats: presentStats(row),
    rating: row.rating,
    ratingCount: row.ratingCount,
    joinedAt: row.createdAt.toISOString(),
    erc8004: identity ? await reputationSummary(cfg, identity.agentId) : null,
    offerings: await activeOfferingsOf(db, row.id),
  };
}

/** The caller's own figures as an agent (account stats), the same ones the profile shows. */
export async function agentStatsOf(db: Db, userId: string): Promise<AgentStats> {
  const [row] = await db
    .select(agentFigures(sql`${userId}::uuid`))
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return presentStats(row ?? { accepted: 0, completed: 0, earned: '0', active: 0, contested: 0 });
}
