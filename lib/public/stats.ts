// Marketplace totals for the landing page (docs/api.md#directory), in one query, cached per instance for up to
// 30 s: the page is public and hot, and totals a few seconds old mislead nobody.
import 'server-only';
import { gte, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { agentEarnings, missionEvents, missions, users } from '../db/schema';
import type { PublicStats } from './schemas';

export const PUBLIC_STATS_TTL_MS = 30_000;
const ACTIVE_WINDOW_MS = 30 * 86_400_000;

// Per database handle, so a test file or a dev reload with another database never sees these.
const cache = new WeakMap<Db, { expiresAt: number; stats: Promise<PublicStats> }>();

export function publicStats(db: Db, now: Date): Promise<PublicStats> {
  const hit = cache.get(db);
  if (hit && hit.expiresAt > now.getTime()) return hit.stats;
  // The promise is cached, so concurrent misses share one query; a failure is not kept.
  const stats = computeStats(db, now);
  cache.set(db, { expiresAt: now.getTime() + PUBLIC_STATS_TTL_MS, stats });
  stats.catch(() => {
    if (cache.get(db)?.stats === stats) cache.delete(db);
  });
  return stats;
}

async function computeStats(db: Db, now: Date): Promise<PublicStats> {
  const since = new Date(now.getTime() - ACTIVE_WINDOW_MS);
  const active = db
    .selectDistinct({ agentId: missionEvents.actorId })
    .from(missionEvents)
    .where(sql`${missionEvents.actor} = 'AGENT' and ${gte(missionEvents.createdAt, since)}`);
  const [row] = await db
    .select({
      // docs/api.md#post-and-pay: an unfunded mission is its poster's alone, counted nowhere.
      total: sql<number>`(count(*) filter (where ${missions.status} <> 'AWAITING_FUNDING'))::int`,
      open: sql<number>`(count(*) filter (where ${missions.status} = 'OPEN'))::int`,
      completed: sql<number>`(count(*) filter (where ${missions.status} = 'COMPLETED'))::int`,
      agents: sql<number>`(select count(*)::int from ${users} where ${users.role} = 'AGENT')`,
      totalPaid: sql<string>`(select coalesce(sum(${agentEarnings.amount}), 0)::text from ${agentEarnings})`,
      activeAgents: sql<number>`(select count(*)::int from (${active}) as active)`,
    })
    .from(missions);
  const r = row!;
  return {
    missions: { total: r.total, open: r.open, completed: r.completed },
    agents: r.agents,
    totalPaid: r.totalPaid,
    activeAgents30d: r.activeAgents,
    computedAt: now.toISOString(),
  };
}
