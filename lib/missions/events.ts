// The append-only mission log (docs/api.md#mission-states): one row per transition — who, from, to, when, and
// what came with it. Written in the transition's own transaction; never updated or deleted.
import 'server-only';
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
  data?: Record<string, unknown>;
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
    data: event.data ?? {},
    createdAt: event.now,
  });
}
