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
//   1. the board's next ten pages' worth of rows, walked in order and tested: a term on one mission
//      in ten or more fills the page here, and nothing else runs; when they hold a match the term
//      is not rare, and the walk goes on to fifty pages (one mission in fifty), and when those hold
//      a quarter of a page, to 250 (one in 250): STAGES;
//   2. else the matches past the walked rows from the GIN index alone, at most RARE + 1 of them
//      (OFFSET 0 keeps the other conditions out of that scan, and `unestimated` keeps a common
//      term's statistics from making it a sequential scan): if that is all of them, sorted;
//   3. else, with more than RARE matches known to lie ahead, the walk on from there, which
//      finds a page within about limit × board / RARE rows (coalesce keeps the GIN index out).
// The page ids feed `id = any(…)` of the list statement, which re-checks, orders and limits them.
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { missions } from '../db/schema';

// The walk's stages, in pages: the first always, each next one only when the rows walked so far
// hold at least `least` matches a page (none: any match), which says the walk is worth going on.
const STAGES = [
  { pages: 10, least: 0 },
  { pages: 50, least: 1 / 100 },
  { pages: 250, least: 1 / 4 },
];
const RARE = 1000;

/**
 * The ids of the page as a subquery: `ordered` are the conditions the sort's index serves (scope,
 * the other filters, the cursor), `matched` the GIN-served ones, and `unestimated` the same with
 * their values in subqueries.
 */
export function matchedPageIds(sort: { column: PgColumn; direction: 'asc' | 'desc' }, ordered: SQL, matched: SQL, unestimated: SQL): SQL {
  const limit = sql`${sql.placeholder('limit')}::int`;
  const n = (value: number) => sql.raw(String(value));
  const dir = sql.raw(sort.direction);
  const op = sql.raw(sort.direction === 'desc' ? '<' : '>');
  const order = sql`order by ${sort.column} ${dir}, ${missions.id} ${dir}`;
  const foundBefore = (stage: number) =>
    sql.join(STAGES.slice(0, stage).map((_, i) => sql`(select count(*) from walk_${n(i)})`), sql` + `);
  // Whether stage i runs: the page is not full yet, and the stages before found enough to go on.
  const runs = (i: number) =>
    i === 0 ? sql`true` : sql`${foundBefore(i)} < ${limit} and ${foundBefore(i)} >= greatest(1, ${limit} * ${n(STAGES[i]!.least)})`;
  // The last row of the first `pages` pages, from the index alone (no row is read).
  const rowAt = (pages: SQL) => sql`(select ${sort.column}, ${missions.id} from ${missions} where ${ordered} ${order}
    offset ${limit} * ${pages} - 1 limit 1)`;
  const walks = STAGES.map(({ pages }, i) => {
    const from = i === 0 ? 0 : STAGES[i - 1]!.pages;
    const after = i === 0 ? sql`` : sql`and (${sort.column}, ${missions.id}) ${op} ${rowAt(n(from))}`;
    return sql`walk_${n(i)} as materialized (
      select ${missions.id} from (
        select ${missions.id}, ${sort.column}, ${missions.search}, ${missions.tags} from ${missions}
        where ${ordered} ${after} ${order} limit ${limit} * ${n(pages - from)}
      ) as ${missions} where ${runs(i)} and ${matched} ${order} limit ${limit})`;
  });
  // The last row walked: that of the last stage that ran (each runs only if the one before did).
  const walkedPages = sql`case ${sql.join(
    STAGES.map((_, i) => STAGES.length - 1 - i).map((i) => (i === 0 ? sql`else ${n(STAGES[0]!.pages)}` : sql`when ${runs(i)} then ${n(STAGES[i]!.pages)}`)),
    sql` `,
  )} end`;
  const found = foundBefore(STAGES.length);
  const past = sql`${found} < ${limit} and exists (select from walk_end)
    and (${sort.column}, ${missions.id}) ${op} (select * from walk_end)`;
  // Each subquery's rows are named "missions", so the conditions read them as written.
  return sql`with ${sql.join(walks, sql`, `)},
    walk_end as materialized ${rowAt(walkedPages)},
    beyond as materialized (
      select ${missions.id}, ${sort.column} from (select * from ${missions} where ${unestimated} offset 0) as ${missions}
      where ${past} and ${ordered} limit ${n(RARE + 1)})
    ${sql.join(STAGES.map((_, i) => sql`select ${missions.id} from walk_${n(i)} as ${missions}`), sql` union all `)}
    union all
    (select ${missions.id} from beyond as ${missions} where (select count(*) from beyond) <= ${n(RARE)} ${order} limit ${limit})
    union all
    (select ${missions.id} from ${missions}
      where (select count(*) from beyond) > ${n(RARE)} and ${past} and ${ordered} and coalesce(${matched}, false)
      ${order} limit ${limit})`;
}
