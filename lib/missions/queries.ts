// Mission rows as the code reads them: the row lock every transition starts from, and a plain read.
import 'server-only';
import { eq, getTableColumns } from 'drizzle-orm';
import type { Db } from '../db/client';
import { missions, type MissionRow } from '../db/schema';

// Every column but the search vector, which only the WHERE clause needs, and the stored views,
// which only the database writes and only the lists read.
const { search: _search, listing: _listing, partiesView: _partiesView, ...missionColumns } = getTableColumns(missions);

export { missionColumns };

/** A mission row as the code reads it (without the search vector and the stored views). */
export type Mission = Omit<MissionRow, 'search' | 'listing' | 'partiesView'>;

export async function findMission(db: Db, id: string): Promise<Mission | undefined> {
  const [row] = await db.select(missionColumns).from(missions).where(eq(missions.id, id)).limit(1);
  return row;
}

/** Locks the mission row for the rest of the transaction: concurrent transitions queue here. */
export async function lockMission(tx: Db, id: string): Promise<Mission | undefined> {
  const [row] = await tx.select(missionColumns).from(missions).where(eq(missions.id, id)).for('update').limit(1);
  return row;
}
