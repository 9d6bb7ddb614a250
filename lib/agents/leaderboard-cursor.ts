// Opaque leaderboard cursors: the period and sort they belong to and the last entry's sort key
// (earned, completed, wallet; the shrunk rating and the count for the rating sort). Keyset, not offset: a page
// starts after that key whatever moved above it meanwhile. A tampered cursor, or one from another period or
// sort, is a 400.
import { z } from 'zod';
import { decodeCursorPayload, encodeCursorPayload } from '../paging/cursor';
import { ApiError } from '../errors';

export interface LeaderboardKey {
  earned: string;
  completed: number;
  walletAddress: string;
  rating: number | null;
  /** docs/api.md#directory: what the rating sort ranks by, the rating shrunk toward the market's average. */
  shrunkRating: number | null;
  ratingCount: number;
}

const cursorSchema = z.object({
  v: z.string(),
  e: z.string().regex(/^[0-9]{1,90}$/),
  // Compared as a PostgreSQL integer.
  c: z.number().int().nonnegative().max(2_147_483_647),
  w: z.string().regex(/^0x[0-9a-f]{40}$/),
  r: z.number().min(1).max(5).nullable().default(null),
  n: z.number().int().nonnegative().max(2_147_483_647).default(0),
  s: z.number().min(1).max(5).nullable().default(null),
});

export function encodeLeaderboardCursor(view: string, key: LeaderboardKey): string {
  return encodeCursorPayload({
    v: view,
    e: key.earned,
    c: key.completed,
    w: key.walletAddress,
    r: key.rating,
    n: key.ratingCount,
    s: key.shrunkRating,
  });
}

export function decodeLeaderboardCursor(cursor: string, view: string): LeaderboardKey {
  const data = decodeCursorPayload(cursor, cursorSchema);
  if (data.v !== view) throw new ApiError(400, 'Validation failed', ['cursor: belongs to another period or sort']);
  return {
    earned: data.e,
    completed: data.c,
    walletAddress: data.w,
    rating: data.r,
    shrunkRating: data.s,
    ratingCount: data.n,
  };
}
