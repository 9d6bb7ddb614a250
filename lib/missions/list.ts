// GET /api/missions: filters, sorts and keyset pagination (API.md §5). Public callers see OPEN
// missions; `mine` lists the caller's own as client or agent, after settling their expired
// review windows so no SUBMITTED past its deadline is listed. Every sort is (key, id), backed by
// an index, so a page costs the same at the 1st and the 5,000th and new missions never shift it.
import 'server-only';
import { and, asc, desc, eq, lte, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Config } from '../config';
import { arrayLiteral } from '../db/array-literal';
import type { Db } from '../db/client';
import { missions } from '../db/schema';
import { ApiError } from '../http/errors';
import { decodeCursor, encodeCursor, type Sort } from './cursor';
import { type Mission, selectMissions, withParties } from './queries';
import type { ListQuery, MissionList } from './schemas';
import { presentMissions, settle } from './views';
import type { Viewer } from './visibility';
import { builtOnce } from '../db/prepared';

interface SortSpec {
  column: PgColumn;
  direction: 'asc' | 'desc';
  cast: 'timestamptz' | 'numeric';
  key: (m: Mission) => string;
}

const isTimestamp = (key: string) => !Number.isNaN(Date.parse(key));
const SORTS: Record<Sort, SortSpec> = {
  bumped: { column: missions.listedAt, direction: 'desc', cast: 'timestamptz', key: (m) => m.listedAt.toISOString() },
  reward: { column: missions.reward, direction: 'desc', cast: 'numeric', key: (m) => m.reward },
  deadline: { column: missions.deadline, direction: 'asc', cast: 'timestamptz', key: (m) => m.deadline.toISOString() },
  created: { column: missions.createdAt, direction: 'desc', cast: 'timestamptz', key: (m) => m.createdAt.toISOString() },
};

const p = sql.placeholder;

// Each filter as a condition on a named placeholder: a query's SQL depends only on which filters
// it uses (its shape), never on their values.
const FILTERS = {
  status: () => sql`${missions.status} = any(${p('status')}::mission_status[])`,
  category: () => eq(missions.category, p('category')),
  tag: () => sql`${missions.tags} @> array[${p('tag')}::text]`,
  minReward: () => sql`${missions.reward} >= ${p('minReward')}::numeric`,
  q: () => sql`${missions.search} @@ websearch_to_tsquery('english', ${p('q')})`,
} satisfies Record<string, () => SQL>;
type Filter = keyof typeof FILTERS;

function buildList(db: Db, sort: Sort, mine: ListQuery['mine'], filters: Filter[], after: boolean) {
  const spec = SORTS[sort];
  const order = spec.direction === 'desc' ? desc : asc;
  const op = sql.raw(spec.direction === 'desc' ? '<' : '>');
  const conditions = [
    mine ? eq(mine === 'client' ? missions.clientId : missions.agentId, p('viewer')) : eq(missions.status, 'OPEN'),
    ...filters.map((filter) => FILTERS[filter]()),
    after ? sql`(${spec.column}, ${missions.id}) ${op} (${p('afterKey')}::${sql.raw(spec.cast)}, ${p('afterId')}::uuid)` : undefined,
  ];
  return selectMissions(db)
    .where(and(...conditions))
    .orderBy(order(spec.column), order(missions.id))
    .limit(p('limit'))
    .prepare(`missions_list_${sort}_${mine ?? 'board'}_${filters.join('_')}_${after ? 'after' : 'first'}`);
}

// The board is the busiest read: its statements are built once per shape and database handle.
const listStatement = builtOnce((db: Db, shape: string) => {
  const [sort, mine, filters, after] = shape.split('|') as [Sort, ListQuery['mine'] | '', string, string];
  return buildList(db, sort, mine || undefined, filters ? (filters.split(',') as Filter[]) : [], after === 'after');
});

export async function listMissions(db: Db, cfg: Config, query: ListQuery, viewer: Viewer, now: Date): Promise<MissionList> {
  const spec = SORTS[query.sort];
  checkScope(query, viewer);
  if (query.mine && viewer.kind === 'user') await settleExpired(db, cfg, query.mine, viewer.id, now);
  const values: Record<string, unknown> = {
    limit: query.limit + 1,
    viewer: viewer.kind === 'user' ? viewer.id : undefined,
    status: query.status && arrayLiteral(query.status),
    category: query.category,
    tag: query.tag,
    minReward: query.minReward?.toString(),
    q: query.q,
  };
  const filters = (Object.keys(FILTERS) as Filter[]).filter((filter) => values[filter] !== undefined);
  if (query.cursor) {
    const valid = spec.cast === 'numeric' ? (k: string) => /^[0-9]{1,78}$/.test(k) : isTimestamp;
    const after = decodeCursor(query.cursor, query.sort, valid);
    values.afterKey = after.key;
    values.afterId = after.id;
  }
  const shape = [query.sort, query.mine ?? '', filters.join(','), query.cursor === undefined ? 'first' : 'after'].join('|');
  const rows = await listStatement(db, shape).execute(values);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: await presentMissions(db, await withParties(db, page), viewer),
    nextCursor: rows.length > query.limit && last ? encodeCursor(query.sort, spec.key(last), last.id) : null,
  };
}

// Without `mine` the list is the public board: OPEN missions only (API.md §5).
function checkScope(query: ListQuery, viewer: Viewer): void {
  if (query.mine && viewer.kind !== 'user') throw new ApiError(401, 'Authentication required');
  if (!query.mine && query.status && query.status.some((s) => s !== 'OPEN')) {
    throw new ApiError(400, 'Validation failed', ['status: only OPEN missions are listed publicly; add mine=client or mine=agent']);
  }
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
