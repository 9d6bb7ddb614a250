// GET /api/missions: filters, sorts and keyset pagination (docs/api.md#listing). Public callers see OPEN
// missions; `mine` lists the caller's own as client or agent, with what their expired review windows
// do applied, so no SUBMITTED past its deadline is listed. Every sort is (key, id), backed by an index,
// so a page costs the same at the 1st and the 5,000th and new missions never shift it.
import 'server-only';
import { and, asc, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { Config } from '../config';
import { arrayLiteral } from '../db/array-literal';
import type { Db } from '../db/client';
import { missions } from '../db/schema';
import { ApiError } from '../errors';
import type { JsonText } from '../json-text';
import { decodeCursor, encodeCursor, type Sort } from './cursor';
import { matchedPageIds } from './matched-page';
import { storedJson } from './present';
import { actionFactsJson, viewWithActions } from './action-facts';
import type { ListQuery, MissionList } from '../missions/schemas';
import { applyDue } from '../missions/due-transitions';
import { canSeeWork, type Viewer, viewerValues } from '../missions/visibility';
import { builtOnce, driverRows } from '../db/prepared';
import { withClientStats } from '../clients/board-stats';

interface SortSpec {
  column: PgColumn;
  direction: 'asc' | 'desc';
  cast: 'timestamptz' | 'numeric';
}

const SORTS: Record<Sort, SortSpec> = {
  bumped: { column: missions.listedAt, direction: 'desc', cast: 'timestamptz' },
  reward: { column: missions.reward, direction: 'desc', cast: 'numeric' },
  deadline: { column: missions.deadline, direction: 'asc', cast: 'timestamptz' },
  created: { column: missions.createdAt, direction: 'desc', cast: 'timestamptz' },
};

// The sort key as the cursor carries it: exact (microseconds), so no row is skipped or repeated.
const cursorKey = ({ column, cast }: SortSpec) =>
  cast === 'numeric'
    ? sql<string>`${column}::text`
    : sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

// A cursor's key is handed to PostgreSQL, so only what cursorKey writes is read back (and the
// milliseconds earlier cursors carried): Date.parse alone admits '2024' or 30 February.
const CURSOR_KEYS: Record<SortSpec['cast'], (key: string) => boolean> = {
  numeric: (key) => /^[0-9]{1,78}$/.test(key),
  timestamptz: (key) =>
    /^[1-9][0-9]{3}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}(?:[0-9]{3})?Z$/.test(key) &&
    !Number.isNaN(Date.parse(key)) &&
    new Date(key).toISOString().slice(0, 19) === key.slice(0, 19),
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
// The filters only a GIN index serves, which no index reads in a sort's order; each also with its
// value in a subquery, so the planner cannot estimate it from the statistics (matched-page.ts).
const MATCHED: Partial<Record<Filter, () => SQL>> = {
  tag: () => sql`${missions.tags} @> (select array[${p('tag')}::text])`,
  q: () => sql`${missions.search} @@ (select websearch_to_tsquery('english', ${p('q')}))`,
};

/** What a list statement's SQL depends on; the values of the filters and the cursor do not count. */
interface Shape {
  sort: Sort;
  mine: ListQuery['mine'];
  filters: Filter[];
  after: boolean;
  anonymous: boolean;
}

const shapeKey = (s: Shape) =>
  `${s.sort}|${s.mine ?? 'board'}|${s.filters.join(',')}|${s.after ? 'after' : 'first'}|` +
  `${s.anonymous ? 'anonymous' : 'viewer'}`;

// The board is the busiest read: its statements are built once per shape and database handle.
const listStatement = builtOnce((db: Db, shape: Shape) => {
  const { sort, mine, filters, after, anonymous } = shape;
  const spec = SORTS[sort];
  const order = spec.direction === 'desc' ? desc : asc;
  const op = sql.raw(spec.direction === 'desc' ? '<' : '>');
  const conditions = (gin: boolean) =>
    filters.filter((filter) => filter in MATCHED === gin).map((filter) => FILTERS[filter]());
  const ordered = and(
    mine
      ? eq(mine === 'client' ? missions.clientId : missions.agentId, p('viewer'))
      : // docs/api.md#direct-missions: a DIRECT mission is off the board.
        and(eq(missions.status, 'OPEN'), isNull(missions.directAgentId)),
    ...conditions(false),
    after
      ? sql`(${spec.column}, ${missions.id}) ${op} (${p('afterKey')}::${sql.raw(spec.cast)}, ${p('afterId')}::uuid)`
      : undefined,
  )!;
  const matched = and(...conditions(true));
  // A user's own list is short and its index walk is bounded by it; the board is not (matched-page.ts).
  const unestimated = and(...filters.flatMap((filter) => MATCHED[filter]?.() ?? []))!;
  const page =
    matched && !mine ? sql`${missions.id} = any(array(${matchedPageIds(spec, ordered, unestimated)}))` : undefined;
  // The page's ids are matches but for one where a bounded walk stopped: `hit` tells it apart.
  const hit = page ? sql<boolean>`coalesce(${matched}, false)` : sql<boolean>`true`;
  // The views the database stored (present.ts), never null here: the board's rows are OPEN, and a
  // `mine` list's caller is a party of every row.
  const view = storedJson(anonymous ? undefined : canSeeWork);
  return db
    .select({
      view: view.as('view'),
      key: cursorKey(spec).as('key'),
      id: missions.id,
      hit: hit.as('hit'),
      due: (mine ? anyDue(db, mine) : sql<boolean>`false`).as('due'),
      // docs/api.md#next-actions: an anonymous caller may do nothing, so its board reads no facts.
      facts: (anonymous ? sql<string | null>`null` : actionFactsJson(sql`${p('viewer')}::uuid`)).as('facts'),
    })
    .from(missions)
    .where(and(ordered, page ?? matched))
    .orderBy(order(spec.column), order(missions.id))
    .limit(p('limit'))
    .prepare(`missions_list ${shapeKey(shape)}`);
}, shapeKey);

/** The page as the JSON text of a MissionList: the missions' JSON comes from the database as is. */
export async function listMissions(
  db: Db,
  cfg: Config,
  query: ListQuery,
  viewer: Viewer,
  now: Date,
): Promise<JsonText<MissionList>> {
  const spec = SORTS[query.sort];
  checkScope(query, viewer);
  const values: Record<string, unknown> = {
    limit: query.limit + 1,
    now: now.toISOString(),
    ...viewerValues(viewer),
    status: query.status && arrayLiteral(query.status),
    category: query.category,
    tag: query.tag,
    minReward: query.minReward?.toString(),
    q: query.q,
  };
  const filters = (Object.keys(FILTERS) as Filter[]).filter((filter) => values[filter] !== undefined);
  if (query.cursor) {
    const after = decodeCursor(query.cursor, query.sort, CURSOR_KEYS[spec.cast]);
    values.afterKey = after.key;
    values.afterId = after.id;
  }
  const shape = {
    sort: query.sort,
    mine: query.mine,
    filters,
    after: query.cursor !== undefined,
    anonymous: viewer.kind === 'anonymous',
  };
  const read = () => driverRows(listStatement(db, shape), values);
  let rows = await read();
  // The page says whether any of the caller's missions is past its review window (anyDue); an
  // empty page says nothing, and the due ones may be what a filter is looking for.
  if (query.mine && viewer.kind === 'user' && (rows.length === 0 || rows[0]!.due)) {
    if (await applyCallersDue(db, cfg, query.mine, viewer.id, now)) rows = await read();
  }
  // A row that is no match is where the walk stopped short of a full page (matched-page.ts): the
  // page is the matches before it, and the next page starts after it.
  const stop = rows.findIndex((row) => !row.hit);
  const matches = stop < 0 ? rows : rows.slice(0, stop);
  const page = matches.slice(0, query.limit);
  const last = matches.length > query.limit ? page.at(-1) : stop < 0 ? undefined : rows[stop];
  const nextCursor = last ? encodeCursor(query.sort, last.key, last.id) : null;
  // docs/api.md#client-record: every item's client.stats, one statement for the page.
  const items = await withClientStats(
    db,
    page.map((row) => viewWithActions(cfg, row.view!, row.facts, viewer, now)),
  );
  return (`{"items":[${items.join(',')}],"nextCursor":` + `${JSON.stringify(nextCursor)}}`) as JsonText<MissionList>;
}

// Without `mine` the list is the public board: OPEN missions only (docs/api.md#listing).
function checkScope(query: ListQuery, viewer: Viewer): void {
  if (query.mine && viewer.kind !== 'user') throw new ApiError(401, 'Authentication required');
  if (!query.mine && query.status && query.status.some((s) => s !== 'OPEN')) {
    throw new ApiError(400, 'Validation failed', [
      'status: only OPEN missions are listed publicly; add mine=client or mine=agent',
    ]);
  }
}

// Whether any of the caller's missions is past its review window, asked within the page's own
// statement: applying them first cost every `mine` page a round trip of its own (0.6 of the
// list's floor, docs/performance.md), and a due mission is rare — the sweep applies them too.
const dueRow = alias(missions, 'due_row');
const anyDue = (db: Db, mine: 'client' | 'agent') =>
  sql<boolean>`exists (${db
    .select({ one: sql`1` })
    .from(dueRow)
    .where(
      and(
        eq(dueRow.status, 'SUBMITTED'),
        sql`${dueRow.reviewDeadline} <= ${p('now')}::timestamptz`,
        eq(mine === 'client' ? dueRow.clientId : dueRow.agentId, p('viewer')),
      ),
    )})`;

// The caller's missions past their review window, applied before the page is read again.
const dueStatement = builtOnce((db: Db, mine: 'client' | 'agent') =>
  db
    .select({ id: missions.id })
    .from(missions)
    .where(
      and(
        eq(missions.status, 'SUBMITTED'),
        sql`${missions.reviewDeadline} <= ${p('now')}::timestamptz`,
        eq(mine === 'client' ? missions.clientId : missions.agentId, p('viewer')),
      ),
    )
    .limit(100)
    .prepare(`missions_due_${mine}`),
);

/** Applies what time did to the caller's due missions; whether there were any. */
async function applyCallersDue(
  db: Db,
  cfg: Config,
  mine: 'client' | 'agent',
  userId: string,
  now: Date,
): Promise<boolean> {
  const due = await dueStatement(db, mine).execute({ now: now.toISOString(), viewer: userId });
  for (const { id } of due) await applyDue(db, cfg, id, now);
  return due.length > 0;
}
