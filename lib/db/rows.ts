// The rows of a raw `db.execute`, whichever driver ran it: postgres-js answers the rows themselves,
// PGlite an object holding them. Its columns come as the driver decoded them, named as the SQL names them.
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
