// docs/api.md#timeline: a mission's events after a seq, at once or held for the next one; the held
// requests bounded per user. (Across instances: tests/faults/timeline-instances.test.ts.)
import { describe, expect, test } from 'vitest';
import { GET as timelineRoute } from '@/app/api/missions/[id]/timeline/route';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { call } from '../support/http';
import { act, createMission, missionIn, newAgent, newClient, ok, type Party } from '../support/missions';

useTestEnvironment(BOOKKEEPING);

const timeline = (party: Party | undefined, id: string, query = '') =>
  call(timelineRoute, { token: party?.token, params: { id }, path: `/api/missions/${id}/timeline${query}` });

describe('GET /api/missions/{id}/timeline', () => {
  test('default: the events in seq order; after a seq only the later ones; data to the parties only', async () => {
    const { client, agent, id } = await missionIn('SUBMITTED');
    const all = await timeline(client, id);
    expect(all.status).toBe(200);
    const events = all.body.events as { seq: number; event: string; from: string | null; to: string }[];
    expect(events.map((e) => e.event)).toEqual(['create', 'accept', 'submit']);
    expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((a, b) => a - b));
    expect(events[2]).toMatchObject({ from: 'ACCEPTED', to: 'SUBMITTED', actor: 'AGENT', at: expect.any(String) });
    expect(events[2]).toHaveProperty('data');
    const later = await timeline(agent, id, `?after=${events[1]!.seq}`);
    expect(later.body.events.map((e: { event: string }) => e.event)).toEqual(['submit']);
    // An OPEN mission is public, its events too, without what came with them.
    const { id: open } = await createMission(await newClient());
    const seen = await timeline(undefined, open);
    expect(seen.status).toBe(200);
    expect(seen.body.events.length).toBeGreaterThan(0);
    for (const event of seen.body.events) expect(event).not.toHaveProperty('data');
    // Anyone else's mission no longer OPEN does not exist for them.
    expect((await timeline(await newAgent(), id)).status).toBe(404);
  });

  test('behavior: with nothing new, wait holds the request until the next event, and answers it', async () => {
    const { client, agent, id } = await missionIn('ACCEPTED');
    const last = (await timeline(agent, id)).body.events.at(-1).seq as number;
    const waiting = timeline(agent, id, `?after=${last}&wait=25`);
    await ok(act('submit', agent, id, { note: 'Done.' }));
    const woken = await waiting;
    expect(woken.status).toBe(200);
    expect(woken.body.events.map((e: { event: string }) => e.event)).toEqual(['submit']);
    // wait=0 (the default) never holds; nothing new is [].
    const seq = woken.body.events[0].seq;
    expect((await timeline(client, id, `?after=${seq}`)).body).toEqual({ events: [] });
    expect((await timeline(client, id, `?after=${seq}&wait=26`)).status).toBe(400);
  });

  test('error: at most 5 held requests a user (429); the rest of them come back with the event', async () => {
    const { client, agent, id } = await missionIn('ACCEPTED');
    const last = (await timeline(agent, id)).body.events.at(-1).seq as number;
    const six = Array.from({ length: 6 }, () => timeline(agent, id, `?after=${last}&wait=25`));
    // Five hold; the one beyond them is answered at once.
    const first = await Promise.race(six.map((answer, i) => answer.then(() => i)));
    expect((await six[first]!).status).toBe(429);
    const held = six.filter((_, i) => i !== first);
    // Another user is not held back by this one's.
    const other = timeline(client, id, `?after=${last}&wait=25`);
    await ok(act('submit', agent, id, { note: 'Done.' }));
    for (const answer of await Promise.all([...held, other])) {
      expect(answer.status).toBe(200);
      expect(answer.body.events.map((e: { event: string }) => e.event)).toEqual(['submit']);
    }
  });
});
