// A client's analytics (docs/api.md#account), computed in SQL — aggregates over the caller's missions through
// the (client_id, created_at) and (client_id, completed_at) indexes; no mission is loaded here.
// The summary describes the missions posted in the range; the series shows, per day or ISO week
// (Monday), what was posted, completed and paid in it, with a row for every bucket.
import 'server-only';
import { and, asc, count, desc, eq, gte, inArray, lt, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { agentEarnings, missionEvents, missions, users } from '../db/schema';
import { clientFigures } from './client-figures';
import type { AnalyticsRange } from './range';
import type { Analytics } from './schemas';
import { builtOnce } from '../db/prepared';

const TOP_AGENTS = 5;
type Interval = AnalyticsRange['interval'];

const rate = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);
const seconds = (value: string | number | null) => (value === null ? null : Math.round(Number(value)));

export async function clientAnalytics(db: Db, clientId: string, range: AnalyticsRange): Promise<Analytics> {
  const statements = statementsFor(db, range.interval);
  // Instants as ISO text: a placeholder is bound without its column's encoder.
  const values = {
    clientId,
    start: range.start.toISOString(),
    end: range.end.toISOString(),
    from: range.from,
    to: range.to,
  };
  const [[summary], [contests], series, topAgents] = await Promise.all([
    statements.summary.execute(values),
    statements.contests.execute(values),
    statements.series.execute(values),
    statements.topAgents.execute(values),
  ]);
  return {
    range: { from: range.from, to: range.to, interval: range.interval },
    missions: { total: summary!.total, byStatus: summary!.byStatus },
    escrowed: summary!.escrowed,
    paid: summary!.paid,
    avgSecondsToAccept: seconds(summary!.avgAccept),
    avgSecondsToComplete: seconds(summary!.avgComplete),
    contestRate: rate(contests!.contested, contests!.delivered),
    series,
    topAgents,
  };
}

const p = sql.placeholder;

// The four queries are built once per database handle and interval, values bound at each call.
const statementsFor = builtOnce((db: Db, interval: Interval) => build(db, interval));

function build(db: Db, interval: Interval) {
  const posted = and(
    eq(missions.clientId, p('clientId')),
    gte(missions.createdAt, p('start')),
    lt(missions.createdAt, p('end')),
  );
  return {
    summary: summarize(db, posted).prepare(`analytics_summary`),
    contests: contestsOf(db, posted).prepare(`analytics_contests`),
    series: seriesOf(db, interval).prepare(`analytics_series_${interval}`),
    topAgents: topAgentsOf(db, posted).prepare(`analytics_top_agents`),
  };
}

function summarize(db: Db, posted: SQL | undefined) {
  return db
    .select({
      ...clientFigures(),
      avgAccept: sql<string | null>`avg(extract(epoch from ${missions.acceptedAt} - ${missions.createdAt}))`,
      avgComplete: sql<string | null>`avg(extract(epoch from ${missions.completedAt} - ${missions.createdAt}))
        filter (where ${missions.status} = 'COMPLETED')`,
    })
    .from(missions)
    .leftJoin(agentEarnings, eq(agentEarnings.missionId, missions.id))
    .where(posted);
}

// One join of the posted missions to their delivery and contest events — not a subquery per
// mission, which costs a probe each (half a second at 20,000 missions).
function contestsOf(db: Db, posted: SQL | undefined) {
  return db
    .select({
      delivered: sql<number>`(count(distinct ${missionEvents.missionId}) filter (where
          ${missionEvents.action} = 'submit'))::int`,
      contested: sql<number>`(count(distinct ${missionEvents.missionId}) filter (where
          ${missionEvents.action} = 'contest'))::int`,
    })
    .from(missionEvents)
    .innerJoin(missions, eq(missions.id, missionEvents.missionId))
    .where(and(posted, inArray(missionEvents.action, ['submit', 'contest'])));
}

// Buckets are UTC calendar days or ISO weeks: timestamps are taken `at time zone 'UTC'`, so the
// session's TimeZone setting cannot move a mission into another bucket.
function seriesOf(db: Db, interval: Interval) {
  const unit = sql.raw(`'${interval}'`);
  const bucketOf = (column: SQLWrapper) => sql<string>`date_trunc(${unit}, ${column} at time zone 'UTC')`;
  const step = sql.raw(`'1 ${interval}'`);
  const buckets = sql`generate_series(date_trunc(${unit}, ${p('from')}::timestamp), ${p('to')}::timestamp,
    ${step}::interval) as bucket(start)`;
  const created = db
    .select({ start: bucketOf(missions.createdAt).as('created_start'), n: count().as('created_n') })
    .from(missions)
    .where(
      and(eq(missions.clientId, p('clientId')), gte(missions.createdAt, p('start')), lt(missions.createdAt, p('end'))),
    )
    .groupBy(sql`1`)
    .as('created');
  const completed = db
    .select({
      start: bucketOf(missions.completedAt).as('completed_start'),
      n: count().as('completed_n'),
      paid: sql<string>`sum(${agentEarnings.gross})`.as('completed_paid'),
    })
    .from(missions)
    .innerJoin(agentEarnings, eq(agentEarnings.missionId, missions.id))
    .where(
      and(
        eq(missions.clientId, p('clientId')),
        gte(missions.completedAt, p('start')),
        lt(missions.completedAt, p('end')),
      ),
    )
    .groupBy(sql`1`)
    .as('completed');
  return db
    .select({
      start: sql<string>`to_char(bucket.start, 'YYYY-MM-DD')`,
      created: sql<number>`coalesce(${created.n}, 0)::int`,
      completed: sql<number>`coalesce(${completed.n}, 0)::int`,
      paid: sql<string>`coalesce(${completed.paid}, 0)::text`,
    })
    .from(buckets)
    .leftJoin(created, sql`${created.start} = bucket.start`)
    .leftJoin(completed, sql`${completed.start} = bucket.start`)
    .orderBy(sql`bucket.start`);
}

function topAgentsOf(db: Db, posted: SQL | undefined) {
  const paid = sql<string>`sum(${agentEarnings.gross})::text`;
  return db
    .select({
      walletAddress: users.walletAddress,
      displayName: users.displayName,
      completed: sql<number>`count(*)::int`,
      paid,
    })
    .from(missions)
    .innerJoin(agentEarnings, eq(agentEarnings.missionId, missions.id))
    .innerJoin(users, eq(users.id, agentEarnings.agentId))
    .where(posted)
    .groupBy(users.id)
    .orderBy(desc(sql`sum(${agentEarnings.gross})`), desc(sql`count(*)`), asc(users.walletAddress))
    .limit(TOP_AGENTS);
}
