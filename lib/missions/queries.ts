// Mission rows: the row lock every transition starts from, and the rows (with the two parties'
// wallets) that views are built from.
import 'server-only';
import { eq, getTableColumns, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { missions, type MissionRow, users } from '../db/schema';

const agentUser = alias(users, 'agent_user');

// Every column but the search vector, which only the WHERE clause needs.
const { search: _search, ...missionColumns } = getTableColumns(missions);

export { missionColumns };

export const missionWithParties = {
  ...missionColumns,
  clientWallet: users.walletAddress,
  agentWallet: agentUser.walletAddress,
};

/** A mission row as the code reads it (without the search vector). */
export type Mission = Omit<MissionRow, 'search'>;
export type MissionWithParties = Mission & { clientWallet: string; agentWallet: string | null };

/** The base query of every mission read: the row and both parties' wallets. */
export function selectMissions(db: Db) {
  return db
    .select(missionWithParties)
    .from(missions)
    .innerJoin(users, eq(users.id, missions.clientId))
    .leftJoin(agentUser, eq(agentUser.id, missions.agentId));
}

export async function findMission(db: Db, where: SQL): Promise<MissionWithParties | undefined> {
  const [row] = await selectMissions(db).where(where).limit(1);
  return row;
}

/** Locks the mission row for the rest of the transaction: concurrent transitions queue here. */
export async function lockMission(tx: Db, id: string): Promise<Mission | undefined> {
  const [row] = await tx.select(missionColumns).from(missions).where(eq(missions.id, id)).for('update').limit(1);
  return row;
}
