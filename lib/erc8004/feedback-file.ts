// GET /api/missions/{id}/feedback.json (docs/api.md#erc-8004-feedback): the stored bytes of a feedback
// file, exactly as hashed into its on-chain feedbackHash. Public: the file is what a reader of the
// registry follows from the feedback. A bounty's winners each have one, named by `?agent=`; what the
// settlement said of its client (docs/api.md#client-feedback) is named by `?client=`.
import 'server-only';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { reputationFeedback } from '../db/schema/erc8004';
import { addressSchema } from '../address';
import { ApiError } from '../errors';

export async function feedbackFileOrThrow(
  db: Db,
  missionId: string,
  agent: string | undefined,
  client?: string,
): Promise<string> {
  const notFound = new ApiError(404, 'No feedback file for this mission');
  if (agent !== undefined && client !== undefined) throw notFound;
  const named = client ?? agent;
  const address = named === undefined ? undefined : addressSchema.safeParse(named);
  if (address && !address.success) throw notFound;
  const rows = await db
    .select({ document: reputationFeedback.document })
    .from(reputationFeedback)
    .innerJoin(users, eq(users.id, reputationFeedback.userId))
    .where(
      and(
        eq(reputationFeedback.missionId, missionId),
        eq(reputationFeedback.subject, client === undefined ? 'agent' : 'client'),
        isNotNull(reputationFeedback.document),
        address ? eq(users.walletAddress, address.data!) : undefined,
      ),
    )
    .orderBy(asc(reputationFeedback.createdAt))
    .limit(2);
  // Without `agent`, only a mission with one feedback file has "the" file.
  if (rows.length !== 1) throw notFound;
  return rows[0]!.document!;
}
