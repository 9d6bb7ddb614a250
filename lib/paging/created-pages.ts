// Keyset pages over (created_at, id), oldest or newest first — applications, comments, webhook
// deliveries: the cursor is the last item's instant and id; a tampered one is a 400 (docs/api.md#pagination).
import { and, asc, desc, eq, gt, lt, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { decodeCursorPayload, encodeCursorPayload } from './cursor';

export type Direction = 'oldest' | 'newest';

const keySchema = z.object({ t: z.iso.datetime(), i: z.guid() });

/** The rows after the cursor's item in `direction`, or undefined for the first page. */
export function afterCursor(
  cursor: string | undefined,
  createdAt: AnyPgColumn,
  id: AnyPgColumn,
  direction: Direction = 'oldest',
): SQL | undefined {
  if (!cursor) return undefined;
  const key = decodeCursorPayload(cursor, keySchema);
  const at = new Date(key.t);
  const past = direction === 'oldest' ? gt : lt;
  return or(past(createdAt, at), and(eq(createdAt, at), past(id, key.i)));
}

export const pageOrder = (createdAt: AnyPgColumn, id: AnyPgColumn, direction: Direction = 'oldest') =>
  direction === 'oldest' ? [asc(createdAt), asc(id)] : [desc(createdAt), desc(id)];

/** The page of `limit` from `rows` (one more was read to know whether there is a next page). */
export function pageOf<T extends { id: string; createdAt: Date }, V>(rows: T[], limit: number, present: (row: T) => V) {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map(present),
    nextCursor:
      rows.length > limit && last ? encodeCursorPayload({ t: last.createdAt.toISOString(), i: last.id }) : null,
  };
}
