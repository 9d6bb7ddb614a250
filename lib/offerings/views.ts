// An offering as the API shows it (docs/api.md#offerings): its terms, its agent's wallet, rating and settled
// count, and how many orders it has open — one query for a page or for one, read by search.ts and store.ts.
import 'server-only';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { completedBy } from '../records/agent-figures';
import type { Db } from '../db/client';
import { missions, offerings, passports, users } from '../db/schema';
import { ApiError } from '../errors';
import { ACTIVE_MISSION_STATUSES } from '../fields';
import type { OfferingView } from './schemas';

/** The orders that hold one of the offering's places: unfunded, and in progress (docs/api.md#offerings). */
export const OPEN_ORDER_STATUSES = ['AWAITING_FUNDING', 'OPEN', ...ACTIVE_MISSION_STATUSES] as const;

export const openOrdersOf = (offeringId: SQL | { getSQL(): SQL }) =>
  sql<number>`(select count(*)::int from ${missions} where ${missions.offeringId} = ${offeringId}
    and ${inArray(missions.status, [...OPEN_ORDER_STATUSES])})`;

/** The columns a view is made of; joined with users (and passports), so every column is qualified. */
export const viewColumns = {
  id: offerings.id,
  agentId: offerings.agentId,
  walletAddress: users.walletAddress,
  rating: offerings.agentRating,
  settledCount: completedBy(offerings.agentId),
  title: offerings.title,
  description: offerings.description,
  category: offerings.category,
  tags: offerings.tags,
  price: offerings.price,
  slaHours: offerings.slaHours,
  criteria: offerings.criteria,
  requirementsSchema: offerings.requirementsSchema,
  maxOpenOrders: offerings.maxOpenOrders,
  openOrders: openOrdersOf(offerings.id),
  active: offerings.active,
  createdAt: offerings.createdAt,
  updatedAt: offerings.updatedAt,
};

export function presentOffering(row: ViewRow): OfferingView {
  return {
    id: row.id,
    agent: { walletAddress: row.walletAddress, rating: row.rating, settledCount: Number(row.settledCount) },
    title: row.title,
    description: row.description,
    category: row.category,
    tags: row.tags,
    price: String(row.price),
    slaHours: row.slaHours,
    criteria: row.criteria ?? [],
    requirementsSchema: (row.requirementsSchema as Record<string, unknown> | null) ?? null,
    maxOpenOrders: row.maxOpenOrders,
    openOrders: Number(row.openOrders),
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export type ViewRow = Awaited<ReturnType<typeof selectViews<Record<never, SQL>>>>[number];

/** Views of the offerings matching `where`, joined with their agents (and, where asked, passports). */
export const selectViews = <E extends Record<string, SQL>>(db: Db, extra?: E) =>
  db
    .select({ ...viewColumns, ...(extra as E) })
    .from(offerings)
    .innerJoin(users, eq(users.id, offerings.agentId))
    .innerJoin(passports, eq(passports.userId, offerings.agentId));

/**
 * One offering: public while active and its agent's passport stands; its agent sees it in any state
 * (an inactive one is otherwise a 404).
 */
export async function getOfferingOrThrow(db: Db, id: string, viewerId?: string): Promise<OfferingView> {
  const [row] = await db
    .select(viewColumns)
    .from(offerings)
    .innerJoin(users, eq(users.id, offerings.agentId))
    .leftJoin(passports, eq(passports.userId, offerings.agentId))
    .where(
      and(
        eq(offerings.id, id),
        viewerId
          ? sql`(${offerings.agentId} = ${viewerId}::uuid or (${offerings.active} and ${passports.userId} is not null
              and ${users.role} = 'AGENT'))`
          : and(eq(offerings.active, true), sql`${passports.userId} is not null`, eq(users.role, 'AGENT')),
      ),
    )
    .limit(1);
  if (!row) throw new ApiError(404, 'Offering not found');
  return presentOffering(row);
}
