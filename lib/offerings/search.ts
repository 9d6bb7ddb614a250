// GET /api/offerings (docs/api.md#offerings): active offerings of agents whose passport stands, filtered by
// text, category, tag, price and agent, sorted by price, rating or newest, in keyset pages over (key, id)
// like the board's (lib/paging): price and newest walk a partial index on active offerings.
import 'server-only';
import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Db } from '../db/client';
import { offerings, users } from '../db/schema';
import { ApiError } from '../errors';
import { decodeCursorPayload, encodeCursorPayload } from '../paging/cursor';
import type { OfferingListQuery, OfferingView } from './schemas';
import { presentOffering, selectViews } from './views';

type Sort = OfferingListQuery['sort'];

// Unrated agents last in the rating sort: -1 is below every rating (1–5).
const ratingKey = sql<number>`coalesce(${offerings.agentRating}, -1)`;

const SORTS: Record<Sort, { key: SQL | AnyPgColumn; direction: 'asc' | 'desc'; cast: string }> = {
  price: { key: offerings.price, direction: 'asc', cast: 'numeric' },
  rating: { key: ratingKey, direction: 'desc', cast: 'float8' },
  new: { key: offerings.createdAt, direction: 'desc', cast: 'timestamptz' },
};

const cursorSchema = z.object({ s: z.enum(['price', 'rating', 'new']), k: z.string().max(100), i: z.guid() });
const KEYS: Record<Sort, RegExp> = {
  price: /^[0-9]{1,78}$/,
  rating: /^-?[0-9]{1,2}(\.[0-9]{1,4})?$/,
  new: /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z$/,
};

const keyText = (sort: Sort) =>
  sort === 'new'
    ? sql<string>`to_char(${offerings.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
    : sql<string>`(${SORTS[sort].key})::text`;

function after(query: OfferingListQuery): SQL | undefined {
  if (!query.cursor) return undefined;
  const cursor = decodeCursorPayload(query.cursor, cursorSchema);
  if (cursor.s !== query.sort) throw new ApiError(400, 'Validation failed', ['cursor: belongs to another sort']);
  if (!KEYS[query.sort].test(cursor.k) || (query.sort === 'new' && Number.isNaN(Date.parse(cursor.k))))
    throw new ApiError(400, 'Validation failed', ['cursor: malformed']);
  const spec = SORTS[query.sort];
  const op = sql.raw(spec.direction === 'desc' ? '<' : '>');
  return sql`(${spec.key}, ${offerings.id}) ${op} (${cursor.k}::${sql.raw(spec.cast)}, ${cursor.i}::uuid)`;
}

export async function searchOfferings(
  db: Db,
  query: OfferingListQuery,
): Promise<{ items: OfferingView[]; nextCursor: string | null }> {
  const spec = SORTS[query.sort];
  const order = spec.direction === 'desc' ? desc : asc;
  const rows = await selectViews(db, { key: keyText(query.sort) })
    .where(
      and(
        eq(offerings.active, true),
        eq(users.role, 'AGENT'),
        query.q ? sql`${offerings.search} @@ websearch_to_tsquery('english', ${query.q})` : undefined,
        query.category ? eq(offerings.category, query.category) : undefined,
        query.tag ? sql`${offerings.tags} @> array[${query.tag}::text]` : undefined,
        query.maxPrice ? sql`${offerings.price} <= ${query.maxPrice}::numeric` : undefined,
        query.agent ? eq(users.walletAddress, query.agent) : undefined,
        after(query),
      ),
    )
    .orderBy(order(spec.key), order(offerings.id))
    .limit(query.limit + 1);
  const last = rows.length > query.limit ? rows[query.limit - 1] : undefined;
  return {
    items: rows.slice(0, query.limit).map(presentOffering),
    nextCursor: last ? encodeCursorPayload({ s: query.sort, k: last.key, i: last.id }) : null,
  };
}

/** An agent's active offerings, for its profile and page (docs/api.md#offerings). */
export async function activeOfferingsOf(db: Db, agentId: string): Promise<OfferingView[]> {
  const rows = await selectViews(db)
    .where(and(eq(offerings.agentId, agentId), eq(offerings.active, true)))
    .orderBy(desc(offerings.createdAt), desc(offerings.id))
    .limit(20);
  return rows.map(presentOffering);
}
