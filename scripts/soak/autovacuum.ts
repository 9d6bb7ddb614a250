// Autovacuum's work, done by the soak when the PostgreSQL under it runs without (this machine's
// server is set up for CI with `autovacuum = off`; a production server runs it, as PostgreSQL does
// by default). Without it every UPDATE of a busy table leaves a dead row no one reclaims: the
// outboxes' pending-row lookups and the mission pages read more and more of them, and a soak
// measures the missing vacuum rather than the service. So, like the autovacuum launcher with its
// default thresholds: every AUTOVACUUM_NAPTIME_MS, each table of the soak database past a threshold
// is vacuumed or analyzed, with autovacuum's cost-based throttling (2 ms a 200-cost round).
import postgres from 'postgres';

// PostgreSQL's defaults: autovacuum_vacuum_threshold and _scale_factor, _insert_threshold and
// _insert_scale_factor, autovacuum_analyze_threshold and _scale_factor.
const VACUUM = { base: 50, scale: 0.2 };
const VACUUM_INSERTS = { base: 1000, scale: 0.2 };
const ANALYZE = { base: 50, scale: 0.1 };
// autovacuum_naptime: how often each database is visited. PostgreSQL's default is a minute; the
// stand-in looks every 15 s, as `autovacuum_naptime = 15s` would on a busy production database.
const AUTOVACUUM_NAPTIME_MS = 15_000;

interface TableCounts {
  table: string;
  rows: number;
  dead: number;
  inserted: number;
  modified: number;
}

export interface AutovacuumStandIn {
  /** Whether the server runs autovacuum itself (then the stand-in does nothing). */
  serverRuns: boolean;
  counts(): { vacuums: number; analyzes: number };
  stop(): Promise<void>;
}

export async function autovacuumStandIn(databaseUrl: string): Promise<AutovacuumStandIn> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const [setting] = await sql<{ autovacuum: string }[]>`show autovacuum`;
  const serverRuns = setting!.autovacuum === 'on';
  let vacuums = 0;
  let analyzes = 0;
  let stopped = false;
  const pass = async () => {
    const tables = await sql<TableCounts[]>`select s.relname as table, greatest(c.reltuples, 0)::float8 as rows,
        s.n_dead_tup::float8 as dead, s.n_ins_since_vacuum::float8 as inserted,
        s.n_mod_since_analyze::float8 as modified
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid`;
    // A manual VACUUM runs unthrottled; autovacuum's workers pause 2 ms every 200 cost units.
    await sql`set vacuum_cost_delay = 2`;
    await sql`set vacuum_cost_limit = 200`;
    for (const t of tables) {
      if (stopped) return;
      const vacuum =
        t.dead > VACUUM.base + VACUUM.scale * t.rows ||
        t.inserted > VACUUM_INSERTS.base + VACUUM_INSERTS.scale * t.rows;
      const analyze = t.modified > ANALYZE.base + ANALYZE.scale * t.rows;
      if (!vacuum && !analyze) continue;
      const name = `"${t.table.replace(/"/g, '""')}"`;
      await sql.unsafe(vacuum ? `vacuum ${analyze ? '(analyze) ' : ''}${name}` : `analyze ${name}`);
      if (vacuum) vacuums += 1;
      if (analyze) analyzes += 1;
    }
  };
  let running: Promise<void> = Promise.resolve();
  const timer = serverRuns
    ? undefined
    : setInterval(() => {
        running = running
          .then(pass)
          .catch((error: unknown) => console.error(`autovacuum stand-in: ${(error as Error).message}`));
      }, AUTOVACUUM_NAPTIME_MS);
  return {
    serverRuns,
    counts: () => ({ vacuums, analyzes }),
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await sql.end();
    },
  };
}
