// A grant's release limit, changed by its person in Connected apps (docs/api.md#confirmations).
import 'server-only';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { grants } from '../db/schema';
import { ApiError } from '../errors';

export async function setReleaseLimit(db: Db, userId: string, grantId: string, releaseLimit: string): Promise<void> {
  const [row] = await db
    .update(grants)
    .set({ releaseLimit })
    .where(and(eq(grants.id, grantId), eq(grants.userId, userId), isNull(grants.revokedAt)))
    .returning({ id: grants.id });
  if (!row) throw new ApiError(404, 'Grant not found');
}
