// A release held for the person (docs/api.md#confirmations): the action and its body stored with the
// grant that asked, valid 24 h, and the person told by webhook (confirmation.requested). Asking again
// for the same release while it waits answers the same confirmation; a grant holds at most
// MAX_PENDING_PER_GRANT, so a token cannot bury the person in requests.
import 'server-only';
import { and, count, eq, gt } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { confirmations, grants } from '../db/schema';
import { ApiError } from '../errors';
import { findMission } from '../missions/queries';
import { issuerOf } from '../auth/resources';
import { emitToUser } from '../webhooks/outbox';

export const CONFIRMATION_TTL_MS = 24 * 3600 * 1000;
export const MAX_PENDING_PER_GRANT = 20;

export type ReleaseAction = 'approve' | 'award';

export interface ConfirmationTicket {
  id: string;
  url: string;
  expiresAt: string;
}

export const confirmationUrl = (cfg: Config, id: string) => `${issuerOf(cfg)}/confirmations/${id}`;

const sameBody = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export async function requestConfirmation(
  db: Db,
  cfg: Config,
  ask: {
    userId: string;
    grantId: string;
    missionId: string;
    action: ReleaseAction;
    body: Record<string, unknown>;
    amount: bigint;
  },
  now: Date,
): Promise<ConfirmationTicket> {
  const row = await db.transaction(async (tx) => {
    // The grant's row serialises its requests: the cap and the "same request" answer hold under a race.
    await tx.select({ id: grants.id }).from(grants).where(eq(grants.id, ask.grantId)).for('update');
    const live = and(
      eq(confirmations.grantId, ask.grantId),
      eq(confirmations.status, 'PENDING'),
      gt(confirmations.expiresAt, now),
    );
    const waiting = await tx
      .select()
      .from(confirmations)
      .where(and(live, eq(confirmations.missionId, ask.missionId), eq(confirmations.action, ask.action)));
    const same = waiting.find((c) => sameBody(c.body, ask.body));
    if (same) return same;
    const [{ n }] = (await tx.select({ n: count() }).from(confirmations).where(live)) as [{ n: number }];
    if (n >= MAX_PENDING_PER_GRANT) {
      throw new ApiError(
        409,
        `At most ${MAX_PENDING_PER_GRANT} confirmations wait per app; the person must decide some first`,
      );
    }
    const [created] = await tx
      .insert(confirmations)
      .values({
        ...ask,
        amount: ask.amount.toString(),
        createdAt: now,
        expiresAt: new Date(now.getTime() + CONFIRMATION_TTL_MS),
      })
      .returning();
    const mission = (await findMission(tx, ask.missionId))!;
    const ticket = ticketOf(cfg, created!);
    await emitToUser(tx, 'confirmation.requested', ask.userId, mission, now, {
      confirmation: { ...ticket, action: ask.action, amount: ask.amount.toString() },
    });
    return created!;
  });
  return ticketOf(cfg, row);
}

const ticketOf = (cfg: Config, row: { id: string; expiresAt: Date }): ConfirmationTicket => ({
  id: row.id,
  url: confirmationUrl(cfg, row.id),
  expiresAt: row.expiresAt.toISOString(),
});
