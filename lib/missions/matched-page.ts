// The page of the public board when it is narrowed by a text search (`q`) or a tag: the filters
// only a GIN index serves, and no index serves in the board's order. Not the other filters or
// `mine`, which the sort indexes serve (list.ts).
//
// PostgreSQL has two plans for "the first 21 matches in the board's order": walk the sort index
// and test each row — cheap when matches are common, a walk of the whole board when they are rare
// — or take every match from the GIN index and sort them — cheap when rare, 200,000 rows for a
// common word at 1M missions. It chooses by an estimate, and it estimates every word outside the
// statistics' most common ones at 0.5 %: at 1M missions it walked the whole board for a word on one
// mission (1.3 s; docs/performance.md, "Query plans"), and a generic plan knows no word at all. So
// the statement tries them in turn, each bounded by what the previous one found:
//   1. the board's next WINDOW × limit rows, walked in order and tested: a term on one mission in
//      ten or more fills the page here, and nothing else runs; when they hold a match or more the
//      term is not rare, and the walk goes on to WIDER × limit rows (one mission in fifty);
//   2. else the matches past the walked rows from the GIN index alone, at most RARE + 1 of them
//      (OFFSET 0 keeps the other conditions out of that scan, and `unestimated` keeps a common
//      term's statistics from making it a sequential scan): if that is all of them, sorted;
//   3. else, with more than RARE matches known to lie ahead, the walk on from there, which
//      finds a page within about limit × board / RARE rows (coalesce keeps the GIN index out).
// The page ids feed `id = any(…)` of the list statement, which re-checks, orders and limits them.
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { missions } from '../db/schema';

const WINDOW = 10;
const WIDER = 50;
const RARE = 1000;

/**
 * The ids of the page as a subquery: `ordered` are the conditions the sort's index serves (scope,
 * the other filters, the cursor), `matched` the GIN-served ones, and `unestimated` the same with
 * their values in subqueries.
 */
export function matchedPageIds(sort: { column: PgColumn; direction: 'asc' | 'desc' }, ordered: SQL, matched: SQL, unestimated: SQL): SQL {
  const limit = sql`${sql.placeholder('limit')}::int`;
  const pages = (n: number) => sql`${limit} * ${sql.raw(String(n))}`;
  const dir = sql.raw(sort.direction);
  const op = sql.raw(sort.direction === 'desc' ? '<' : '>');
  const order = sql`order by ${sort.column} ${dir}, ${missions.id} ${dir}`;
  const inWindow = sql`(select count(*) from in_window)`;
  const found = sql`(${inWindow} + (select count(*) from in_wider))`;
  const past = sql`${found} < ${limit} and exists (select from window_end)
    and (${sort.column}, ${missions.id}) ${op} (select * from window_end)`;
  const walked = (rows: SQL) => sql`select ${missions.id}, ${sort.column}, ${missions.search}, ${missions.tags} from ${missions} where ${ordered} ${order} ${rows}`;
  // Each subquery's rows are named "missions", so the conditions read them as written.
  return sql`with in_window as materialized (
      select ${missions.id} from (${walked(sql`limit ${pages(WINDOW)}`)}) as ${missions} where ${matched} ${order} limit ${limit}),
    in_wider as materialized (
      select ${missions.id} from (${walked(sql`offset ${pages(WINDOW)} limit ${pages(WIDER - WINDOW)}`)}) as ${missions}
      where ${inWindow} > 0 and ${inWindow} < ${limit} and ${matched} ${order} limit ${limit}),
    window_end as materialized (
      select ${sort.column}, ${missions.id} from ${missions} where ${ordered} ${order}
      offset case when ${inWindow} > 0 then ${pages(WIDER)} else ${pages(WINDOW)} end - 1 limit 1),
    beyond as materialized (
      select ${missions.id}, ${sort.column} from (select * from ${missions} where ${unestimated} offset 0) as ${missions}
      where ${past} and ${ordered} limit ${sql.raw(String(RARE + 1))})
    select ${missions.id} from in_window as ${missions}
    union all
    select ${missions.id} from in_wider as ${missions}
    union all
    (select ${missions.id} from beyond as ${missions} where (select count(*) from beyond) <= ${sql.raw(String(RARE))} ${order} limit ${limit})
    union all
    (select ${missions.id} from ${missions}
      where (select count(*) from beyond) > ${sql.raw(String(RARE))} and ${past} and ${ordered} and coalesce(${matched}, false)
      ${order} limit ${limit})`;
}
