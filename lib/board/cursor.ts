// Opaque keyset cursors: the sort they belong to and the last item's (key, id). Base64url JSON,
// so clients cannot rely on their shape; a cursor from another sort or a tampered one is a 400.
import { z } from 'zod';
import { decodeCursorPayload, encodeCursorPayload } from '../paging/cursor';
import { ApiError } from '../errors';
import type { MISSION_SORTS } from '../missions/schemas';

export type Sort = (typeof MISSION_SORTS)[number];

const cursorSchema = z.object({
  s: z.string(),
  k: z.string().max(100),
  i: z.guid(),
});

export function encodeCursor(sort: Sort, key: string, id: string): string {
  return encodeCursorPayload({ s: sort, k: key, i: id });
}

export function decodeCursor(
  cursor: string,
  sort: Sort,
  validKey: (key: string) => boolean,
): { key: string; id: string } {
  const data = decodeCursorPayload(cursor, cursorSchema);
  if (data.s !== sort) throw new ApiError(400, 'Validation failed', ['cursor: belongs to another sort']);
  if (!validKey(data.k)) throw new ApiError(400, 'Validation failed', ['cursor: malformed']);
  return { key: data.k, id: data.i };
}
