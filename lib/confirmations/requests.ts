// A release held for the person (docs/api.md#confirmations): the action and its body stored with the
// grant that asked and the terms it was asked on, valid 24 h, and the person told by webhook
// (confirmation.requested). Asking again for the same release on the same terms while it waits answers
// the same confirmation; one waiting on other terms (a new round, another reward) is SUPERSEDED by the
// new one. A grant holds at most MAX_PENDING_PER_GRANT, so a token cannot bury the person in requests.
import 'server-only';
import { and, count, eq, gt } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { confirmations, grants } from '../db/schema';
import { ApiError } from '../errors';
import { findMission } from '../missions/queries';
import { issuerOf } from '../auth/resources';
import { emitToUser } from '../webhooks/outbox';
import { type ConfirmationTerms, changedTerms, type ReleaseAction } from './terms';

export const CONFIRMATION_TTL_MS = 24 * 3600 * 1000;
export const MAX_PENDING_PER_GRANT = 20;

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
    terms: ConfirmationTerms;
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
    const same = waiting.find((c) => sameBody(c.body, ask.body) && c.terms && !changedTerms(c.terms, ask.terms).length);
    if (same) return same;
    // The same release asked on other terms: the old question no longer describes it.
    for (const stale of waiting.filter((c) => !c.terms || changedTerms(c.terms, ask.terms).length > 0)) {
      const changed = stale.terms ? changedTerms(stale.terms, ask.terms) : ['terms'];
      await supersede(tx, stale.id, `asked again on other terms (${changed.join(', ')})`, now);
    }
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

/** Marks a waiting confirmation SUPERSEDED with why; one decided meanwhile is left as it is. */
export async function supersede(db: Db, id: string, reason: string, now: Date): Promise<void> {
  await db
    .update(confirmations)
    .set({ status: 'SUPERSEDED', reason, decidedAt: now })
    .where(and(eq(confirmations.id, id), eq(confirmations.status, 'PENDING')));
}

const ticketOf = (cfg: Config, row: { id: string; expiresAt: Date }): ConfirmationTicket => ({
  id: row.id,
  url: confirmationUrl(cfg, row.id),
  expiresAt: row.expiresAt.toISOString(),
});
