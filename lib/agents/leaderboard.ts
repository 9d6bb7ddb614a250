// The agents' leaderboard (API.md §6): completions and earnings in a period from the ledger,
// ranked in SQL with every tie broken — by earned, then completed (or the other way round), then
// wallet address ascending — so ranks are unique and stable. Only the page's agents get the
// all-time figures (success rate) and passport looked up.
import 'server-only';
import { and, asc, eq, gte, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { agentEarnings, passports, users } from '../db/schema';
import { acceptedBy, completedBy } from './figures';
import { rememberPage } from './leaderboard-cache';
import { decodeLeaderboardCursor, encodeLeaderboardCursor, type LeaderboardKey } from './leaderboard-cursor';
import type { LeaderboardEntry, LeaderboardQuery } from './schemas';
import { successRate } from './success-rate';

const PERIOD_DAYS = { '7d': 7, '30d': 30, all: undefined } as const;

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
  const byEarned = query.sort === 'earned';
  const [first, second] = byEarned ? [totals.earned, totals.completed] : [totals.completed, totals.earned];
  const ranked = db.$with('ranked').as(
    db
      .select({
        agentId: totals.agentId,
        completed: totals.completed,
        earned: totals.earned,
        walletAddress: users.walletAddress,
        displayName: users.displayName,
        rank: sql<number>`(row_number() over (order by ${first} desc, ${second} desc, ${users.walletAddress} asc))::int`.as('rank'),
      })
      .from(totals)
      .innerJoin(users, and(eq(users.id, totals.agentId), eq(users.role, 'AGENT'))),
  );
  const after = query.cursor ? decodeLeaderboardCursor(query.cursor, view) : undefined;
  const page = db.$with('page').as(
    db
      .select()
      .from(ranked)
      .where(after ? afterKey(ranked, after, byEarned) : undefined)
      .orderBy(ranked.rank)
      .limit(query.limit + 1),
  );
  const rows = await db
    .with(totals, ranked, page)
    .select({
      rank: page.rank,
      walletAddress: page.walletAddress,
      displayName: page.displayName,
      completed: page.completed,
      earned: page.earned,
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
  }));
  const last = items.at(-1);
  return { items, nextCursor: rows.length > query.limit && last ? encodeLeaderboardCursor(view, last) : null };
}

type Ranked = { earned: SQLWrapper; completed: SQLWrapper; walletAddress: SQLWrapper };

// The rows after `key` in (first desc, second desc, wallet asc) order: mixed directions, so the
// row-value comparison `(a, b) < (x, y)` cannot express it; spelled out instead.
function afterKey(r: Ranked, key: LeaderboardKey, byEarned: boolean): SQL {
  const earned = sql`${key.earned}::numeric`;
  const completed = sql`${key.completed}::int`;
  const [first, firstKey, second, secondKey] = byEarned
    ? [r.earned, earned, r.completed, completed]
    : [r.completed, completed, r.earned, earned];
  return sql`(${first} < ${firstKey} or (${first} = ${firstKey} and (${second} < ${secondKey}
    or (${second} = ${secondKey} and ${r.walletAddress} > ${key.walletAddress}))))`;
}
