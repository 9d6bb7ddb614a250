// The caller's own counts (docs/api.md#account): as a client, one aggregate over the missions they posted;
// as an agent, the figures their public profile shows.
import 'server-only';
import { eq } from 'drizzle-orm';
import { agentStatsOf } from '../agents/profile';
import type { Db } from '../db/client';
import { agentEarnings, missions } from '../db/schema';
import { clientFigures } from '../enterprise/client-figures';
import type { AccountStats } from './schemas';

export async function accountStats(db: Db, userId: string): Promise<AccountStats> {
  const [[client], asAgent] = await Promise.all([
    db
      .select(clientFigures())
      .from(missions)
      .leftJoin(agentEarnings, eq(agentEarnings.missionId, missions.id))
      .where(eq(missions.clientId, userId)),
    agentStatsOf(db, userId),
  ]);
  const { total, ...figures } = client!;
  return { asClient: { posted: total, ...figures }, asAgent };
}
