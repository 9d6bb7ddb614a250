// The agents' leaderboard (docs/api.md#directory): completions and earnings in a period from the ledger,
// ranked in SQL with every tie broken — by earned, then completed (or the other way round), then
// wallet address ascending; by the rating shrunk toward the market's average (10 phantom average-rated
// reviews, so one lucky review does not outrank a hundred good ones), then more ratings, unrated last
// (docs/api.md#directory) — so ranks are
// unique and stable. Only the page's agents get the
// all-time figures (success rate) and passport looked up.
import 'server-only';
import { and, asc, eq, gte, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { agentEarnings, passports, users } from '../db/schema';
import { acceptedBy, completedBy } from '../records/agent-figures';
import { rememberPage } from './leaderboard-cache';
import { decodeLeaderboardCursor, encodeLeaderboardCursor, type LeaderboardKey } from './leaderboard-cursor';
import type { LeaderboardEntry, LeaderboardQuery } from './schemas';
import { marketAverage, ratingsByAgent } from '../records/ratings';
import { successRate } from './success-rate';

const PERIOD_DAYS = { '7d': 7, '30d': 30, all: undefined } as const;

/** docs/api.md#directory: how many phantom reviews at the market's average every agent's rating starts with. */
export const PRIOR_REVIEWS = 10;

export interface Leaderboard {
  items: LeaderboardEntry[];
  nextCursor: string | null;
}

/** A page of the leaderboard, from this instance's memo when nothing has changed since (leaderboard-cache.ts). */
export function listLeaderboard(db: Db, query: LeaderboardQuery, now: Date): Promise<Leaderboard> {
  const key = [query.period, query.sort, query.limit, query.cursor ?? ''].join('|');
  return rememberPage(db, key, now, () => rankAgents(db, query, now));
}

async function rankAgents(db: Db, query: LeaderboardQuery, now: Date): Promise<Leaderboard> {
  const view = `${query.period}:${query.sort}`;
  const days = PERIOD_DAYS[query.period];
  const since = days === undefined ? undefined : new Date(now.getTime() - days * 86_400_000);

  const totals = db.$with('totals').as(
    db
      .select({
        agentId: agentEarnings.agentId,
        completed: sql<number>`count(*)::int`.as('completed'),
        earned: sql<string>`sum(${agentEarnings.amount})`.as('earned'),
      })
      .from(agentEarnings)
      .where(since ? gte(agentEarnings.createdAt, since) : undefined)
      .groupBy(agentEarnings.agentId),
  );
  // Every ranked agent's rating, from one grouped pass over the reviews (not a subquery per agent).
  const ratings = ratingsByAgent(db, now);
  const market = marketAverage(db, now);
  const rated = db.$with('rated').as(
    db
      .select({
        agentId: totals.agentId,
        completed: totals.completed,
        earned: totals.earned,
        walletAddress: users.walletAddress,
        displayName: users.displayName,
        // Unrated agents sort after every rated one: 0 is below any rating (1–5).
        rating: sql<number>`coalesce(${ratings.rating}, 0)`.as('rating'),
        ratingCount: sql<number>`coalesce(${ratings.ratingCount}, 0)`.as('rating_count'),
        // (sum + C·m) / (n + C): the Bayesian average; unrated agents 0, after every rated one.
        shrunk: sql<number>`coalesce(round(((${ratings.ratingSum} + ${PRIOR_REVIEWS} * (select ${market.average}
          from ${market})) / (${ratings.ratingCount} + ${PRIOR_REVIEWS}))::numeric, 2)::float8, 0)`.as('shrunk'),
      })
      .from(totals)
      .innerJoin(users, and(eq(users.id, totals.agentId), eq(users.role, 'AGENT')))
      .leftJoin(ratings, eq(ratings.agentId, totals.agentId)),
  );
  const order = ORDERS[query.sort](rated);
  const ranked = db.$with('ranked').as(
    db
      .select({
        agentId: rated.agentId,
        completed: rated.completed,
        earned: rated.earned,
        rating: rated.rating,
        ratingCount: rated.ratingCount,
        shrunk: rated.shrunk,
        walletAddress: rated.walletAddress,
        displayName: rated.displayName,
        rank: sql<number>`(row_number() over (order by ${order[0]} desc, ${order[1]} desc,
          ${rated.walletAddress} asc))::int`.as('rank'),
      })
      .from(rated),
  );
  const after = query.cursor ? decodeLeaderboardCursor(query.cursor, view) : undefined;
  const page = db.$with('page').as(
    db
      .select()
      .from(ranked)
      .where(
        after ? afterKey(ORDERS[query.sort](ranked), ranked.walletAddress, keyValues(query.sort, after)) : undefined,
      )
      .orderBy(ranked.rank)
      .limit(query.limit + 1),
  );
  const rows = await db
    .with(totals, ratings, market, rated, ranked, page)
    .select({
      rank: page.rank,
      walletAddress: page.walletAddress,
      displayName: page.displayName,
      completed: page.completed,
      earned: page.earned,
      rating: page.rating,
      ratingCount: page.ratingCount,
      shrunk: page.shrunk,
      completedAll: completedBy(page.agentId),
      accepted: acceptedBy(page.agentId),
      passportTokenId: passports.tokenId,
    })
    .from(page)
    .leftJoin(passports, eq(passports.userId, page.agentId))
    .orderBy(asc(page.rank));

  const items: LeaderboardEntry[] = rows.slice(0, query.limit).map((row) => ({
    rank: row.rank,
    walletAddress: row.walletAddress,
    displayName: row.displayName,
    completed: row.completed,
    earned: String(row.earned),
    successRate: successRate(row.completedAll, row.accepted),
    passportTokenId: row.passportTokenId,
    rating: Number(row.rating) > 0 ? Number(row.rating) : null,
    ratingCount: row.ratingCount,
    shrunkRating: Number(row.shrunk) > 0 ? Number(row.shrunk) : null,
  }));
  const last = items.at(-1);
  return { items, nextCursor: rows.length > query.limit && last ? encodeLeaderboardCursor(view, last) : null };
}

type Figures = { earned: SQLWrapper; completed: SQLWrapper; shrunk: SQLWrapper; ratingCount: SQLWrapper };

// Each sort's first and second key, both descending; the wallet address breaks what is left.
const ORDERS: Record<LeaderboardQuery['sort'], (f: Figures) => [SQLWrapper, SQLWrapper]> = {
  earned: (f) => [f.earned, f.completed],
  completed: (f) => [f.completed, f.earned],
  rating: (f) => [f.shrunk, f.ratingCount],
};

/** The cursor's values of the sort's two keys, typed as PostgreSQL compares them. */
function keyValues(sort: LeaderboardQuery['sort'], key: LeaderboardKey): [SQL, SQL, string] {
  const earned = sql`${key.earned}::numeric`;
  const completed = sql`${key.completed}::int`;
  if (sort === 'earned') return [earned, completed, key.walletAddress];
  if (sort === 'completed') return [completed, earned, key.walletAddress];
  return [sql`${key.shrunkRating ?? 0}::float8`, sql`${key.ratingCount}::int`, key.walletAddress];
}

// The rows after the key in (first desc, second desc, wallet asc) order: mixed directions, so the
// row-value comparison `(a, b) < (x, y)` cannot express it; spelled out instead.
function afterKey(
  [first, second]: [SQLWrapper, SQLWrapper],
  wallet: SQLWrapper,
  [firstKey, secondKey, walletKey]: [SQL, SQL, string],
): SQL {
  return sql`(${first} < ${firstKey} or (${first} = ${firstKey} and (${second} < ${secondKey}
    or (${second} = ${secondKey} and ${wallet} > ${walletKey}))))`;
}
