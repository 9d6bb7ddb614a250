// The append-only mission log (docs/api.md#mission-states): one row per transition — who, from, to, when, and
// what came with it. Written in the transition's own transaction; never updated or deleted.
import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { missionEvents, type MissionStatus } from '../db/schema';
import type { Viewer } from './visibility';

export interface EventInput {
  missionId: string;
  clientId: string;
  viewer: Viewer;
  action: string;
  from: MissionStatus | null;
  to: MissionStatus;
  /** What came with it: a transition's EventData (effects.ts), a creation's files. */
  data?: object;
  now: Date;
}

export async function recordEvent(tx: Db, event: EventInput): Promise<void> {
  const { viewer } = event;
  const actor =
    viewer.kind === 'operator'
      ? 'OPERATOR'
      : viewer.kind === 'user'
        ? viewer.id === event.clientId
          ? 'OWNER'
          : 'AGENT'
        : 'SYSTEM';
  await tx.insert(missionEvents).values({
    missionId: event.missionId,
    actor,
    actorId: viewer.kind === 'user' ? viewer.id : null,
    action: event.action,
    fromStatus: event.from,
    toStatus: event.to,
    data: (event.data ?? {}) as Record<string, unknown>,
    createdAt: event.now,
  });
  // docs/api.md#timeline: wakes the mission's waiting timelines on every instance, once this commits.
  await tx.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${event.missionId})`);
}

/** The NOTIFY channel of new mission events; the payload is the mission's id. */
export const EVENTS_CHANNEL = 'mission_events';
