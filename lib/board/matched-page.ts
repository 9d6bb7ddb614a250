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
//      (OFFSET 0 keeps the other conditions out of that scan, and the term's value in a subquery
//      keeps a common term's statistics from making it a sequential scan): if that is all of them, sorted;
//   3. else, with more than RARE matches known to lie ahead, the walk on from there, which finds a
//      page within about limit × board / RARE rows when the matches are spread out — but nothing
//      says they are: RARE + 1 missions funded with one word and the farthest deadlines all lie at
//      the end of `sort=deadline`, and a walk that went on until the page filled read the whole
//      board to reach them, on every such request from anyone (50–130 ms at 200k missions, growing
//      with the board). So it reads at most WALK_ON pages' worth of rows, and a page it does not
//      fill ends at the last row it read that is no match (walk_stop): that row comes back with the
//      ids, and list.ts answers the matches before it and a cursor after it — a short or empty page
//      that is not the last. Matches read after that row come on the next page, so each is
//      answered once and in order; the row being no match is how list.ts tells it from the items.
// The page ids feed `id = any(…)` of the list statement, which orders and limits them.
//
// The term and the page size reach the statement only through subqueries, so a custom plan knows
// no more than the generic one and PostgreSQL's plan cache keeps the generic plan: no planning per
// call. With the values visible, a custom plan read `limit × 10` rows where the generic one guessed
// 10 % of the board, and at 1M missions the cache re-planned the statement on every call (0.5–1 ms,
// most of a rare word's page; docs/performance.md, "Scale").
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
// The walk on's bound, in pages like the stages, so that what a request may read grows only with
// the page it asks for: 2,100 rows at the default page of 20 (the whole statement ~3 ms at 200k
// missions, docs/performance.md "Scale"), 10,100 at the largest — half of what the last stage may
// read. A term on one row in 100 of those ahead still fills its page.
const WALK_ON = 100;

/**
 * The ids of the page as a subquery: `ordered` are the conditions the sort's index serves (scope,
 * the other filters, the cursor), `matched` the GIN-served ones with their values in subqueries
 * (see above). One of the ids may be of a row that is no match: where the walk stopped short of a
 * full page.
 */
export function matchedPageIds(sort: { column: PgColumn; direction: 'asc' | 'desc' }, ordered: SQL, matched: SQL): SQL {
  const limit = sql`(select ${sql.placeholder('limit')}::int)`;
  const n = (value: number) => sql.raw(String(value));
  const dir = sql.raw(sort.direction);
  const op = sql.raw(sort.direction === 'desc' ? '<' : '>');
  const order = sql`order by ${sort.column} ${dir}, ${missions.id} ${dir}`;
  const key = sql`(${sort.column}, ${missions.id})`;
  const foundBefore = (stage: number) =>
    sql.join(
      STAGES.slice(0, stage).map((_, i) => sql`(select count(*) from walk_${n(i)})`),
      sql` + `,
    );
  // Whether stage i runs: the page is not full yet, and the stages before found enough to go on.
  const runs = (i: number) =>
    i === 0
      ? sql`true`
      : sql`${foundBefore(i)} < ${limit} and ${foundBefore(i)} >= greatest(1, ${limit} * ${n(STAGES[i]!.least)})`;
  // The last row of the first `pages` pages past `after`, from the index alone (no row is read).
  const rowAt = (
    pages: SQL,
    after: SQL = sql``,
  ) => sql`(select ${sort.column}, ${missions.id} from ${missions} where ${ordered} ${after} ${order}
    offset ${limit} * ${pages} - 1 limit 1)`;
  // The first `pages` pages' worth of rows past `after`, in order, and the matches among them.
  const walk = (name: string, when: SQL, after: SQL, pages: SQL) => sql`${sql.raw(name)} as materialized (
      select ${missions.id} from (
        select ${missions.id}, ${sort.column}, ${missions.search}, ${missions.tags} from ${missions}
        where ${ordered} ${after} ${order} limit ${limit} * ${pages}
      ) as ${missions} where ${when} and ${matched} ${order} limit ${limit})`;
  const walks = STAGES.map(({ pages }, i) => {
    const from = i === 0 ? 0 : STAGES[i - 1]!.pages;
    return walk(`walk_${i}`, runs(i), i === 0 ? sql`` : sql`and ${key} ${op} ${rowAt(n(from))}`, n(pages - from));
  });
  // The last row walked: that of the last stage that ran (each runs only if the one before did).
  const walkedPages = sql`case ${sql.join(
    STAGES.map((_, i) => STAGES.length - 1 - i).map((i) =>
      i === 0 ? sql`else ${n(STAGES[0]!.pages)}` : sql`when ${runs(i)} then ${n(STAGES[i]!.pages)}`,
    ),
    sql` `,
  )} end`;
  const found = foundBefore(STAGES.length);
  const pastEnd = sql`and ${key} ${op} (select * from walk_end)`;
  // Beyond holds rows only when the page is not full and rows lie past walk_end: `many` says both.
  const many = sql`(select count(*) from beyond) > ${n(RARE)}`;
  // walk_stop reads back from the walk on's last row to the first that is no match: fewer than a
  // page of rows, as the walk on found fewer than a page of matches.
  const back = sql.raw(sort.direction === 'desc' ? 'asc' : 'desc');
  const upTo = sql.raw(sort.direction === 'desc' ? '>=' : '<=');
  // Each subquery's rows are named "missions", so the conditions read them as written.
  return sql`with ${sql.join(walks, sql`, `)},
    walk_end as materialized ${rowAt(walkedPages)},
    beyond as materialized (
      select ${missions.id}, ${sort.column} from (select * from ${missions} where ${matched} offset 0) as ${missions}
      where ${found} < ${limit} and exists (select from walk_end) ${pastEnd} and ${ordered} limit ${n(RARE + 1)}),
    ${walk('walk_on', many, pastEnd, n(WALK_ON))},
    walk_stop as materialized (
      select ${missions.id} from ${missions}
      where ${found} + (select count(*) from walk_on) < ${limit} and ${many} and ${ordered}
        and ${key} ${upTo} ${rowAt(n(WALK_ON), pastEnd)} and not coalesce(${matched}, false)
      order by ${sort.column} ${back}, ${missions.id} ${back} limit 1)
    ${sql.join(
      STAGES.map((_, i) => sql`select ${missions.id} from walk_${n(i)} as ${missions}`),
      sql` union all `,
    )}
    union all
    (select ${missions.id} from beyond as ${missions} where (select count(*) from beyond) <= ${n(RARE)} ${order}
      limit ${limit})
    union all select ${missions.id} from walk_on as ${missions}
    union all select ${missions.id} from walk_stop as ${missions}`;
}
