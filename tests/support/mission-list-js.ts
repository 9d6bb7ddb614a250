// The JS mission-view oracle: lib/board/list.ts built the library way — Drizzle selects the rows
// (with the parties' wallets) and their files, and JavaScript presents them, as before the database
// wrote the views (git show c950afc^:lib/missions/present.ts). The view tests hold the database's
// pages against it; bench:libraries copies it over lib/board/list.ts in a throw-away build.
// GET /api/missions: filters, sorts and keyset pagination (docs/api.md#listing). Public callers see OPEN
// missions; `mine` lists the caller's own as client or agent, after settling their expired
// review windows so no SUBMITTED past its deadline is listed. Every sort is (key, id), backed by
// an index, so a page costs the same at the 1st and the 5,000th and new missions never shift it.
import type { CriterionCheck } from '@/lib/missions/criteria';
import 'server-only';
import { and, asc, desc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Config } from '@/lib/config';
import { arrayLiteral } from '@/lib/db/array-literal';
import type { Db } from '@/lib/db/client';
import { bountyEntries, missionApplications, missionContests, missionFiles, missions, users } from '@/lib/db/schema';
import { nextActions } from '@/lib/missions/next-actions';
import { ApiError } from '@/lib/errors';
import type { JsonText } from '@/lib/json-text';
import { decodeCursor, encodeCursor, type Sort } from '@/lib/board/cursor';
import type { ListQuery, MissionFileView, MissionList, MissionView } from '@/lib/missions/schemas';
import { applyDue } from '@/lib/missions/due-transitions';
import { isAssignee, isOwner, type Viewer, viewerValues } from '@/lib/missions/visibility';
import { builtOnce } from '@/lib/db/prepared';

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

/** What a list statement's SQL depends on; the values of the filters and the cursor do not count. */
interface Shape {
  sort: Sort;
  mine: ListQuery['mine'];
  filters: Filter[];
  after: boolean;
  anonymous: boolean;
}

const shapeKey = (s: Shape) =>
  `${s.sort}|${s.mine ?? 'board'}|${s.filters.join(',')}|` +
  `${s.after ? 'after' : 'first'}|${s.anonymous ? 'anonymous' : 'viewer'}`;

// The board is the busiest read: its statements are built once per shape and database handle.
const listStatement = builtOnce((db: Db, shape: Shape) => {
  const { sort, mine, filters, after } = shape;
  const spec = SORTS[sort];
  const order = spec.direction === 'desc' ? desc : asc;
  const op = sql.raw(spec.direction === 'desc' ? '<' : '>');
  const conditions = [
    mine ? eq(mine === 'client' ? missions.clientId : missions.agentId, p('viewer')) : eq(missions.status, 'OPEN'),
    ...filters.map((filter) => FILTERS[filter]()),
    after
      ? sql`(${spec.column}, ${missions.id}) ${op} (${p('afterKey')}::${sql.raw(spec.cast)}, ${p('afterId')}::uuid)`
      : undefined,
  ];
  return db
    .select({ ...rowColumns, key: cursorKey(spec) })
    .from(missions)
    .where(and(...conditions))
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
  if (query.mine && viewer.kind === 'user') await applyCallersDue(db, cfg, query.mine, viewer.id, now);
  const values: Record<string, unknown> = {
    limit: query.limit + 1,
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
  const rows = await listStatement(db, shape).execute(values);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > query.limit && last ? encodeCursor(query.sort, last.key, last.id) : null;
  const items = await presentMissions(db, cfg, page, viewer, now);
  return JSON.stringify({ items, nextCursor }) as JsonText<MissionList>;
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

// The caller's missions past their review window, settled before the page is read.
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

async function applyCallersDue(
  db: Db,
  cfg: Config,
  mine: 'client' | 'agent',
  userId: string,
  now: Date,
): Promise<void> {
  const due = await dueStatement(db, mine).execute({ now: now.toISOString(), viewer: userId });
  for (const { id } of due) await applyDue(db, cfg, id, now);
}

// Every column but the search vector and the stored board view, with both parties' wallets.
const { search: _search, listing: _listing, ...missionColumns } = getTableColumns(missions);
const walletOf = (id: PgColumn | SQL) => sql`(select ${users.walletAddress} from ${users} where ${users.id} = ${id})`;
const rowColumns = {
  ...missionColumns,
  clientWallet: sql<string>`${walletOf(missions.clientId)}`.mapWith(String),
  agentWallet: sql<string | null>`${walletOf(sql`coalesce(${missions.agentId}, ${missions.directAgentId})`)}`,
};
type Row = Omit<typeof missions.$inferSelect, 'search' | 'listing'> & {
  clientWallet: string;
  agentWallet: string | null;
};
type FileRow = typeof missionFiles.$inferSelect;
type ContestRow = typeof missionContests.$inferSelect;

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);
const presentFile = (f: FileRow): MissionFileView => ({
  id: f.id,
  filename: f.filename,
  contentType: f.contentType,
  size: f.size,
  sha256: f.sha256,
});
const seesWork = (m: Row, viewer: Viewer) =>
  viewer.kind === 'operator' || viewer.kind === 'system' || isOwner(m, viewer) || isAssignee(m, viewer);

/** The page's files (and contests, where the viewer sees work) in one query each, then each mission presented. */
async function presentMissions(db: Db, cfg: Config, rows: Row[], viewer: Viewer, now: Date): Promise<MissionView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((m) => m.id);
  // docs/api.md#next-actions: the caller's part in each (an entry, this round's application), then the table's rows.
  const mine = async (table: typeof bountyEntries | typeof missionApplications) =>
    viewer.kind !== 'user'
      ? []
      : await db
          .select({ missionId: table.missionId, round: 'round' in table ? table.round : sql<null>`null` })
          .from(table)
          .where(and(inArray(table.missionId, ids), eq(table.agentId, viewer.id)));
  const [entries, applications] = await Promise.all([mine(bountyEntries), mine(missionApplications)]);
  const applicantsOf = async (m: Row) =>
    (
      await db
        .select({ id: missionApplications.id })
        .from(missionApplications)
        .where(and(eq(missionApplications.missionId, m.id), eq(missionApplications.round, m.assignment)))
    ).length;
  const actionsOf = async (m: Row) =>
    nextActions(
      {
        ...m,
        entered: entries.some((e) => e.missionId === m.id),
        applied: applications.some((a) => a.missionId === m.id && a.round === m.assignment),
        applicants: m.assignmentMode === 'APPLICATION' ? await applicantsOf(m) : 0,
      },
      viewer,
      now,
      cfg.missions,
    );
  const working = rows.filter((m) => seesWork(m, viewer)).map((m) => m.id);
  const [files, contests] = await Promise.all([
    db
      .select()
      .from(missionFiles)
      .where(inArray(missionFiles.missionId, ids))
      .orderBy(missionFiles.createdAt, missionFiles.position, missionFiles.id),
    working.length
      ? db
          .select()
          .from(missionContests)
          .where(inArray(missionContests.missionId, working))
          .orderBy(missionContests.round)
      : [],
  ]);
  const filesOf = groupBy(files, (f) => f.missionId);
  const contestsOf = groupBy(contests as ContestRow[], (c) => c.missionId);
  return Promise.all(
    rows.map(async (m) => ({
      ...presentMission(m, filesOf.get(m.id) ?? [], contestsOf.get(m.id) ?? [], seesWork(m, viewer)),
      actions: await actionsOf(m),
    })),
  );
}

function presentMission(m: Row, files: FileRow[], contests: ContestRow[], work: boolean): Omit<MissionView, 'actions'> {
  // Only the current assignment's work: an agent who withdrew took their rounds with them.
  const roundFiles = (kind: FileRow['kind'], round: number) =>
    files.filter((f) => f.kind === kind && f.assignment === m.assignment && f.round === round).map(presentFile);
  return {
    id: m.id,
    title: m.title,
    description: m.description,
    category: m.category,
    tags: m.tags,
    reward: m.reward,
    deadline: m.deadline.toISOString(),
    status: m.status,
    assignment: m.assignmentMode,
    client: { walletAddress: m.clientWallet },
    agent: m.agentWallet ? { walletAddress: m.agentWallet } : null,
    onChainTaskId: m.onChainTaskId,
    attachments: files.filter((f) => f.kind === 'ATTACHMENT').map(presentFile),
    criteria: (m.criteria ?? []).map((text, index) => {
      const check = m.criteriaChecks?.[index];
      return check ? { number: index + 1, text, check: check as CriterionCheck } : { number: index + 1, text };
    }),
    criteriaHash: m.criteriaHash,
    autoApprove: m.autoApprove,
    verdicts: m.verdicts,
    submission:
      work && m.submittedAt
        ? {
            note: m.submissionNote ?? '',
            selfCheck: m.submissionSelfCheck ?? [],
            checks: m.submissionChecks ?? [],
            files: roundFiles('DELIVERABLE', m.submissionCount),
            submittedAt: m.submittedAt.toISOString(),
          }
        : null,
    contests: work
      ? contests
          .filter((c) => c.assignment === m.assignment)
          .map((c) => ({
            round: c.round,
            reason: c.reason,
            unmet: c.unmet ?? [],
            files: roundFiles('EVIDENCE', c.round),
            contestedAt: c.createdAt.toISOString(),
          }))
      : [],
    // The variant predates bounties (docs/api.md#bounties) and is measured on missions that are none.
    bounty: null,
    // Likewise milestones (docs/api.md#milestones): measured on missions without any.
    milestones: [],
    released: m.released,
    settlement: work ? (m.settlement ?? null) : null,
    settlementOffer: work ? (m.settlementOffer ?? null) : null,
    offering: m.offeringId ? { id: m.offeringId, title: m.offeringTitle ?? '' } : null,
    requirements: m.requirements ?? null,
    reviewDeadline: iso(m.reviewDeadline),
    bumpCount: m.bumpCount,
    bumpedAt: iso(m.bumpedAt),
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
    acceptedAt: iso(m.acceptedAt),
    submittedAt: iso(m.submittedAt),
    completedAt: iso(m.completedAt),
    cancelledAt: iso(m.cancelledAt),
  };
}
