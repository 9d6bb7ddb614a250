// GET /api/missions: filters, sorts and keyset pagination (API.md §5). Public callers see OPEN
// missions; `mine` lists the caller's own as client or agent, after settling their expired
// review windows so no SUBMITTED past its deadline is listed. Every sort is (key, id), backed by
// an index, so a page costs the same at the 1st and the 5,000th and new missions never shift it.
import 'server-only';
import { and, arrayContains, asc, desc, eq, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missions } from '../db/schema';
import { ApiError } from '../http/errors';
import { decodeCursor, encodeCursor, type Sort } from './cursor';
import type { MissionWithParties } from './queries';
import { selectMissions } from './queries';
import type { ListQuery, MissionList } from './schemas';
import { presentMissions, settle } from './views';
import type { Viewer } from './visibility';

interface SortSpec {
  column: PgColumn;
  direction: 'asc' | 'desc';
  cast: 'timestamptz' | 'numeric';
  key: (m: MissionWithParties) => string;
}

const isTimestamp = (key: string) => !Number.isNaN(Date.parse(key));
const SORTS: Record<Sort, SortSpec> = {
  bumped: { column: missions.listedAt, direction: 'desc', cast: 'timestamptz', key: (m) => m.listedAt.toISOString() },
  reward: { column: missions.reward, direction: 'desc', cast: 'numeric', key: (m) => m.reward },
  deadline: { column: missions.deadline, direction: 'asc', cast: 'timestamptz', key: (m) => m.deadline.toISOString() },
  created: { column: missions.createdAt, direction: 'desc', cast: 'timestamptz', key: (m) => m.createdAt.toISOString() },
};

export async function listMissions(db: Db, cfg: Config, query: ListQuery, viewer: Viewer, now: Date): Promise<MissionList> {
  const spec = SORTS[query.sort];
  const conditions: (SQL | undefined)[] = [scope(query, viewer)];
  if (query.mine && viewer.kind === 'user') await settleExpired(db, cfg, query.mine, viewer.id, now);
  if (query.status) conditions.push(inArray(missions.status, query.status));
  if (query.category) conditions.push(eq(missions.category, query.category));
  if (query.tag) conditions.push(arrayContains(missions.tags, [query.tag]));
  if (query.minReward !== undefined) conditions.push(sql`${missions.reward} >= ${query.minReward.toString()}::numeric`);
  if (query.q) conditions.push(sql`${missions.search} @@ websearch_to_tsquery('english', ${query.q})`);
  if (query.cursor) {
    const valid = spec.cast === 'numeric' ? (k: string) => /^[0-9]{1,78}$/.test(k) : isTimestamp;
    const after = decodeCursor(query.cursor, query.sort, valid);
    const op = sql.raw(spec.direction === 'desc' ? '<' : '>');
    conditions.push(sql`(${spec.column}, ${missions.id}) ${op} (${after.key}::${sql.raw(spec.cast)}, ${after.id}::uuid)`);
  }
  const order = spec.direction === 'desc' ? desc : asc;
  const rows = await selectMissions(db)
    .where(and(...conditions))
    .orderBy(order(spec.column), order(missions.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: await presentMissions(db, page, viewer),
    nextCursor: rows.length > query.limit && last ? encodeCursor(query.sort, spec.key(last), last.id) : null,
  };
}

// Without `mine` the list is the public board: OPEN missions only (API.md §5).
function scope(query: ListQuery, viewer: Viewer): SQL {
  if (query.mine) {
    if (viewer.kind !== 'user') throw new ApiError(401, 'Authentication required');
    return eq(query.mine === 'client' ? missions.clientId : missions.agentId, viewer.id);
  }
  if (query.status && query.status.some((s) => s !== 'OPEN')) {
    throw new ApiError(400, 'Validation failed', ['status: only OPEN missions are listed publicly; add mine=client or mine=agent']);
  }
  return eq(missions.status, 'OPEN');
}

async function settleExpired(db: Db, cfg: Config, mine: 'client' | 'agent', userId: string, now: Date): Promise<void> {
  const party = mine === 'client' ? missions.clientId : missions.agentId;
  const due = await db
    .select({ id: missions.id })
    .from(missions)
    .where(and(eq(missions.status, 'SUBMITTED'), lte(missions.reviewDeadline, now), eq(party, userId)))
    .limit(100);
  for (const { id } of due) await settle(db, cfg, id, now);
}
