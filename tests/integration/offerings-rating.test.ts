// The rating an offering shows and sorts by (docs/api.md#offerings): its agent's reviews' average, kept on the
// offering by every review written or edited, unrated agents last.
import { describe, expect, test } from 'vitest';
import { PATCH as editReviewRoute, POST as reviewRoute } from '@/app/api/missions/[id]/review/route';
import { GET as searchRoute } from '@/app/api/offerings/route';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { call } from '../support/http';
import { missionIn, newAgent } from '../support/missions';
import { publish } from '../support/offerings';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

describe('the rating sort', () => {
  test('rated agents first, by their reviews, which a new or edited review moves', async () => {
    const word = `zq${Date.now()}`;
    const unrated = await newAgent();
    const rated = await newAgent();
    const plain = await publish(unrated, { title: `Translate ${word} one`, requirementsSchema: undefined });
    const done = await missionIn('COMPLETED', { agent: rated });
    const good = await publish(rated, { title: `Translate ${word} two`, requirementsSchema: undefined });
    const byRating = async () =>
      (await call(searchRoute, { path: `/api/offerings?q=${word}&sort=rating` })).body.items as {
        id: string;
        agent: { rating: number | null; settledCount: number };
      }[];
    expect((await byRating()).map((o) => o.agent.rating)).toEqual([null, null]);
    const review = await call(reviewRoute, {
      method: 'POST',
      token: done.client.token,
      params: { id: done.id },
      body: { rating: 4 },
    });
    expect(review.status).toBe(201);
    // docs/api.md#client-reviews: the review is sealed until the agent reviews its client too.
    expect((await byRating()).map((o) => o.agent.rating)).toEqual([null, null]);
    const back = await call(reviewRoute, {
      method: 'POST',
      token: rated.token,
      params: { id: done.id },
      body: { rating: 5 },
    });
    expect(back.status).toBe(201);
    const after = await byRating();
    expect(after.map((o) => o.id)).toEqual([good.id, plain.id]);
    expect(after[0]!.agent).toEqual({ walletAddress: rated.address, rating: 4, settledCount: 1 });
    await call(editReviewRoute, {
      method: 'PATCH',
      token: done.client.token,
      params: { id: done.id },
      body: { rating: 2 },
    });
    expect((await byRating())[0]!.agent.rating).toBe(2);
  });
});
