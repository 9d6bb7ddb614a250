// Comments (docs/api.md#comments): questions and answers on a mission. While it is OPEN anyone may read them
// and any signed-in user may ask (the owner answers); once accepted, only its two parties and the
// operator read and write them. Rate-limited per user by the route (COMMENT_RATE_LIMIT_PER_MINUTE).
import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { missionComments, users } from '../db/schema';
import { ApiError } from '../errors';
import { findMission, type Mission } from '../missions/queries';
import { canSeeMission, isAssignee, isOwner, type Viewer } from '../missions/visibility';
import { afterCursor, pageOf, pageOrder } from '../paging/created-pages';
import type { CommentView, commentSchema, pageQuerySchema } from './schemas';

/** The mission, if `viewer` may take part in its conversation now. */
async function conversationOf(db: Db, missionId: string, viewer: Viewer, writing: boolean): Promise<Mission> {
  const mission = await findMission(db, missionId);
  if (!mission || !canSeeMission(mission, viewer)) throw new ApiError(404, 'Mission not found');
  const party = isOwner(mission, viewer) || isAssignee(mission, viewer) || viewer.kind === 'operator';
  // docs/api.md#post-and-pay: an unfunded mission is closed to everything until it is funded.
  if (mission.status === 'AWAITING_FUNDING') throw new ApiError(409, 'Mission is AWAITING_FUNDING: fund it first');
  if (mission.status === 'OPEN') {
    if (writing && viewer.kind === 'anonymous') throw new ApiError(401, 'Authentication required');
    return mission;
  }
  if (!party) throw new ApiError(403, "Only the mission's parties and the operator take part once it is accepted");
  return mission;
}

const roleOf = (mission: Mission, viewer: Viewer): CommentView['role'] =>
  viewer.kind === 'operator'
    ? 'OPERATOR'
    : isOwner(mission, viewer)
      ? 'OWNER'
      : isAssignee(mission, viewer)
        ? 'AGENT'
        : 'USER';

export async function postComment(
  db: Db,
  missionId: string,
  viewer: Viewer,
  input: z.infer<typeof commentSchema>,
  now: Date,
): Promise<CommentView> {
  const mission = await conversationOf(db, missionId, viewer, true);
  const [row] = await db
    .insert(missionComments)
    .values({ missionId, authorId: viewer.kind === 'user' ? viewer.id : null, body: input.body, createdAt: now })
    .returning({ id: missionComments.id });
  const [written] = await commentRows(db, mission, { id: row!.id });
  return presentComment(mission)(written!);
}

export async function listComments(db: Db, missionId: string, viewer: Viewer, query: z.infer<typeof pageQuerySchema>) {
  const mission = await conversationOf(db, missionId, viewer, false);
  const rows = await commentRows(db, mission, { limit: query.limit + 1, cursor: query.cursor });
  return pageOf(rows, query.limit, presentComment(mission));
}

function commentRows(db: Db, mission: Mission, page: { id?: string; limit?: number; cursor?: string }) {
  const c = missionComments;
  return db
    .select({
      id: c.id,
      body: c.body,
      createdAt: c.createdAt,
      authorId: c.authorId,
      walletAddress: users.walletAddress,
      displayName: users.displayName,
    })
    .from(c)
    .leftJoin(users, eq(users.id, c.authorId))
    .where(
      and(
        eq(c.missionId, mission.id),
        page.id ? eq(c.id, page.id) : undefined,
        afterCursor(page.cursor, c.createdAt, c.id),
      ),
    )
    .orderBy(...pageOrder(c.createdAt, c.id))
    .limit(page.limit ?? 1);
}

type CommentRow = Awaited<ReturnType<typeof commentRows>>[number];

const presentComment =
  (mission: Mission) =>
  (row: CommentRow): CommentView => ({
    id: row.id,
    author: row.walletAddress ? { walletAddress: row.walletAddress, displayName: row.displayName } : null,
    role: row.authorId === null ? 'OPERATOR' : roleOf(mission, { kind: 'user', id: row.authorId, role: 'CLIENT' }),
    body: row.body,
    createdAt: row.createdAt.toISOString(),
  });
