// Mission rows: the row lock every transition starts from, and the rows (with the two parties'
// wallets) that views are built from.
import 'server-only';
import { eq, getTableColumns, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { missions, type MissionRow } from '../db/schema';
import { walletsOf } from '../users/wallets';

// Every column but the search vector, which only the WHERE clause needs.
const { search: _search, ...missionColumns } = getTableColumns(missions);

export { missionColumns };

/** A mission row as the code reads it (without the search vector). */
export type Mission = Omit<MissionRow, 'search'>;
export type MissionWithParties = Mission & { clientWallet: string; agentWallet: string | null };

/** The base query of every mission read: the row without the search vector. */
export function selectMissions(db: Db) {
  return db.select(missionColumns).from(missions);
}

/** The rows with both parties' wallets (remembered per instance: lib/users/wallets.ts). */
export async function withParties(db: Db, rows: Mission[]): Promise<MissionWithParties[]> {
  const wallets = await walletsOf(db, rows.flatMap((m) => (m.agentId ? [m.clientId, m.agentId] : [m.clientId])));
  // The rows are this read's own: extended in place rather than copied, column by column.
  return rows.map((m) => Object.assign(m, { clientWallet: wallets.get(m.clientId)!, agentWallet: m.agentId ? wallets.get(m.agentId)! : null }));
}

export async function findMission(db: Db, where: SQL): Promise<MissionWithParties | undefined> {
  const rows = await selectMissions(db).where(where).limit(1);
  return (await withParties(db, rows))[0];
}

/** Locks the mission row for the rest of the transaction: concurrent transitions queue here. */
export async function lockMission(tx: Db, id: string): Promise<Mission | undefined> {
  const [row] = await tx.select(missionColumns).from(missions).where(eq(missions.id, id)).for('update').limit(1);
  return row;
}
