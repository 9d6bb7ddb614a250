// A client's mission figures as SQL aggregates over `missions` left-joined to the ledger, shared
// by the analytics summary and the account stats so both count the same way. "Escrowed" is the
// reward still held for unfinished work (an AWAITING_FUNDING mission's is not held yet); "paid" is
// the gross reward of completed missions.
import { type SQL, sql } from 'drizzle-orm';
import { agentEarnings, missions, missionStatusEnum } from '../db/schema';
import type { StatusCounts } from './schemas';

export const clientFigures = () => ({
  total: sql<number>`count(*)::int`,
  byStatus: Object.fromEntries(
    missionStatusEnum.enumValues.map((status) => [
      status,
      sql<number>`(count(*) filter (where ${missions.status} = ${status}))::int`,
    ]),
  ) as Record<keyof StatusCounts, SQL<number>>,
  escrowed: sql<string>`coalesce(sum(${missions.reward}) filter (where ${missions.status} not in
      ('COMPLETED', 'CANCELLED', 'AWAITING_FUNDING')), 0)::text`,
  paid: sql<string>`coalesce(sum(${agentEarnings.gross}), 0)::text`,
});
