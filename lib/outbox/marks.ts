// What a request wrote to the outboxes (docs/api.md#one-door): each writer of a settlement, a feedback or a
// webhook event row notes its mission here, so the route wrapper knows, whichever route ran, that
// there is something to send once the request succeeded. Held in AsyncLocalStorage: lib/ code marks
// without passing anything around, and code outside a request (the sweep, scripts) marks nothing.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface OutboxMarks {
  /** Missions with settlement or feedback rows written: their sends are waited for. */
  readonly missions: Set<string>;
  /** Whether any webhook event row was written: the deliveries go once the response is out. */
  webhooks: boolean;
}

// One store per process: Next.js may load this module more than once (each route's bundle).
const holder = globalThis as unknown as { [key: symbol]: AsyncLocalStorage<OutboxMarks> | undefined };
const storage = (holder[Symbol.for('taskmarket.outbox-marks')] ??= new AsyncLocalStorage<OutboxMarks>());

/** Runs `work` with fresh marks and answers them with its result; nested runs mark their own. */
export async function withOutboxMarks<T>(work: () => Promise<T>): Promise<{ result: T; marks: OutboxMarks }> {
  const marks: OutboxMarks = { missions: new Set(), webhooks: false };
  const result = await storage.run(marks, work);
  return { result, marks };
}

/** A settlement or feedback row for `missionId` was written (its transaction may still roll back). */
export function markMissionSends(missionId: string): void {
  storage.getStore()?.missions.add(missionId);
}

/** A webhook event row was written. */
export function markWebhooks(): void {
  const marks = storage.getStore();
  if (marks) marks.webhooks = true;
}
