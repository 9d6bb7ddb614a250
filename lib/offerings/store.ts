// An agent's offerings (docs/api.md#offerings): publish, edit, deactivate. At most MAX_ACTIVE_OFFERINGS active
// at once, counted with the agent's row locked so two publishes cannot both take the last place.
import 'server-only';
import { and, count, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { offerings, users } from '../db/schema';
import { ApiError } from '../errors';
import { currentRatingOf } from './agent-rating';
import { checkRequirementsSchema } from './requirements';
import { type CreateOfferingInput, MAX_ACTIVE_OFFERINGS, type OfferingView, type UpdateOfferingInput } from './schemas';
import { getOfferingOrThrow } from './views';

async function assertRoom(tx: Db, agentId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, agentId)).for('update');
  const [row] = await tx
    .select({ n: count() })
    .from(offerings)
    .where(and(eq(offerings.agentId, agentId), eq(offerings.active, true)));
  if ((row?.n ?? 0) >= MAX_ACTIVE_OFFERINGS)
    throw new ApiError(409, 'Too many active offerings', [
      `offerings: an agent has at most ${MAX_ACTIVE_OFFERINGS} active offerings; deactivate one first`,
    ]);
}

export async function createOffering(
  db: Db,
  agentId: string,
  input: CreateOfferingInput,
  now: Date,
): Promise<OfferingView> {
  if (input.requirementsSchema) checkRequirementsSchema(input.requirementsSchema);
  const id = await db.transaction(async (tx) => {
    await assertRoom(tx, agentId);
    const [row] = await tx
      .insert(offerings)
      .values({
        agentId,
        title: input.title,
        description: input.description,
        category: input.category,
        tags: input.tags,
        price: input.price.toString(),
        slaHours: input.slaHours,
        criteria: input.criteria ?? null,
        requirementsSchema: input.requirementsSchema ?? null,
        maxOpenOrders: input.maxOpenOrders,
        agentRating: currentRatingOf(agentId),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: offerings.id });
    return row!.id;
  });
  return getOfferingOrThrow(db, id, agentId);
}

/** Its agent changes any term or `active`; orders already placed keep the terms they were placed with. */
export async function updateOffering(
  db: Db,
  agentId: string,
  id: string,
  input: UpdateOfferingInput,
  now: Date,
): Promise<OfferingView> {
  if (input.requirementsSchema) checkRequirementsSchema(input.requirementsSchema);
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ active: offerings.active, updatedAt: offerings.updatedAt })
      .from(offerings)
      .where(and(eq(offerings.id, id), eq(offerings.agentId, agentId)))
      .for('update');
    if (!current) throw new ApiError(404, 'Offering not found');
    if (input.active === true && !current.active) await assertRoom(tx, agentId);
    const { price, ...rest } = input;
    // updatedAt is the compiled validator's version (requirements.ts): every edit makes a new one.
    const updatedAt = new Date(Math.max(now.getTime(), current.updatedAt.getTime() + 1));
    await tx
      .update(offerings)
      .set({ ...rest, ...(price === undefined ? {} : { price: price.toString() }), updatedAt })
      .where(and(eq(offerings.id, id), eq(offerings.agentId, agentId)));
  });
  return getOfferingOrThrow(db, id, agentId);
}

/** DELETE deactivates: the offering leaves the search; orders already placed go on. */
export async function deactivateOffering(db: Db, agentId: string, id: string, now: Date): Promise<OfferingView> {
  const [row] = await db
    .update(offerings)
    .set({ active: false, updatedAt: now })
    .where(and(eq(offerings.id, id), eq(offerings.agentId, agentId)))
    .returning({ id: offerings.id });
  if (!row) throw new ApiError(404, 'Offering not found');
  return getOfferingOrThrow(db, id, agentId);
}
