// docs/api.md#directory: the leaderboard's rating sort resists luck — it ranks by the rating shrunk toward
// the market's average by 10 phantom average-rated reviews, and still shows the raw average. A database of
// its own: the market's average is every open review in it.
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { GET as leaderboardRoute } from '@/app/api/agents/leaderboard/route';
import { POST as reviewRoute } from '@/app/api/missions/[id]/review/route';
import { getDb } from '@/lib/db/client';
import { agentEarnings, missionEvents, missionReviews, missions } from '@/lib/db/schema';
import { call } from '../support/http';
import { isolatedDatabase } from '../support/isolated-database';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { daysAgo, setMissionTimes } from '../support/mission-clock';
import { missionIn, newAgent, type Party } from '../support/missions';

useTestEnvironment({ ...isolatedDatabase(), ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

/** One mission completed and reviewed through the routes, its review past the double-blind week. */
async function reviewedMission(agent: Party, rating: number) {
  const done = await missionIn('COMPLETED', { agent });
  const answer = await call(reviewRoute, {
    method: 'POST',
    token: done.client.token,
    params: { id: done.id },
    body: { rating },
  });
  expect(answer.status).toBe(201);
  await setMissionTimes(done.id, { completedAt: daysAgo(8) });
  return done.id;
}

/**
 * Seeded rows, not routes: driving a hundred missions through the API is minutes on a shared machine, so the
 * agent's other reviews are copies of its one real mission — each its own COMPLETED mission row, ledger credit
 * and review, exactly what the routes write for one and log (the leaderboard reads nothing else).
 */
async function copiesOf(missionId: string, ratings: number[]) {
  const db = await getDb();
  const [row] = await db.select().from(missions).where(eq(missions.id, missionId));
  const [credit] = await db.select().from(agentEarnings).where(eq(agentEarnings.missionId, missionId));
  const [review] = await db.select().from(missionReviews).where(eq(missionReviews.missionId, missionId));
  const events = await db.select().from(missionEvents).where(eq(missionEvents.missionId, missionId));
  const { id: _id, search: _search, listing: _listing, partiesView: _partiesView, ...columns } = row!;
  for (const rating of ratings) {
    const [copy] = await db.insert(missions).values(columns).returning({ id: missions.id });
    const { id: _creditId, ...creditColumns } = credit!;
    await db.insert(agentEarnings).values({ ...creditColumns, missionId: copy!.id });
    await db.insert(missionReviews).values({ ...review!, missionId: copy!.id, rating });
    // Its log too: the success rate counts the accepts.
    await db
      .insert(missionEvents)
      .values(events.map(({ id: _eventId, ...event }) => ({ ...event, missionId: copy!.id })));
  }
}

const ratingsOf = (n: number, rating: number) => Array.from({ length: n }, () => rating);

describe('the shrunk rating (docs/api.md#directory)', () => {
  test('behavior: one five-star review ranks below a hundred reviews averaging 4.8', async () => {
    const [lucky, steady, weak] = [await newAgent(), await newAgent(), await newAgent()];
    await reviewedMission(lucky, 5);
    // 80 fives and 20 fours: 4.8 on average, a hundred reviews.
    await copiesOf(await reviewedMission(steady, 5), [...ratingsOf(79, 5), ...ratingsOf(20, 4)]);
    // The rest of the market: twenty reviews of 2, so the market's average is (5 + 480 + 40) / 121.
    await copiesOf(await reviewedMission(weak, 2), ratingsOf(19, 2));

    const board = await call(leaderboardRoute, { path: '/api/agents/leaderboard?sort=rating' });
    expect(board.status).toBe(200);
    const market = (5 + 480 + 40) / 121;
    const shrunk = (sum: number, n: number) => Math.round(((sum + 10 * market) / (n + 10)) * 100) / 100;
    expect(
      board.body.items.map(
        (e: { walletAddress: string; rating: number; ratingCount: number; shrunkRating: number }) => [
          e.walletAddress,
          e.rating,
          e.ratingCount,
          e.shrunkRating,
        ],
      ),
    ).toEqual([
      [steady.address, 4.8, 100, shrunk(480, 100)],
      [lucky.address, 5, 1, shrunk(5, 1)],
      [weak.address, 2, 20, shrunk(40, 20)],
    ]);
  });
});
