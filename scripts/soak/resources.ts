// What the soak watches besides the requests: each instance's server process (RSS from /proc, V8
// heap from memory-probe.mjs), where the CPU goes (cpu.ts), PostgreSQL's connections to the soak
// database and its tables' rows (live, dead, read by sequential scans), the deployment's keys in
// Redis, and the depth of the two outboxes (chain settlements, webhook deliveries).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import postgres from 'postgres';
import { procStat } from '../bench/proc-stat';
import { cpuCounter } from './cpu';

export interface ResourceSample {
  at: number;
  /** Per instance, in MB: the server process's resident set and V8's used heap. */
  rssMb: number[];
  heapMb: number[];
  pgConnections: number;
  /** PostgreSQL's committed and rolled-back transactions in the soak database so far (pg_stat_database). */
  pgTransactions: number;
  /** CPU seconds used so far, by part (cpu.ts). */
  cpuSeconds: Record<string, number>;
  /** Per table of the soak database (pg_stat_user_tables): rows live and dead, rows read by sequential scans so far. */
  pgTables: Record<string, { live: number; dead: number; seqRead: number }>;
  kvKeys: number;
  settlementsPending: number;
  webhooksPending: number;
}

const rssKbOf = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

/** The instance's server: `tsx server.ts` runs it in a child node process, the biggest under `root`. */
export function serverPidOf(root: number): number {
  const descendants = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!pid || descendants.has(pid)) continue;
      const parent = procStat(pid)?.ppid;
      if (parent !== undefined && descendants.has(parent)) {
        descendants.add(pid);
        grew = true;
      }
    }
  }
  return [...descendants].reduce((best, pid) => {
    try {
      return rssKbOf(pid) > rssKbOf(best) ? pid : best;
    } catch {
      return best;
    }
  }, root);
}

export function resourceWatch(options: {
  instancePids: number[];
  probeDir: string;
  databaseUrl: string;
  redisUrl: string;
  kvPrefix: string;
}) {
  const sql = postgres(options.databaseUrl, { max: 1, onnotice: () => {} });
  const redis = new Redis(options.redisUrl, { lazyConnect: true });
  const database = new URL(options.databaseUrl).pathname.slice(1);
  const servers = options.instancePids.map(serverPidOf);
  const cpuSeconds = cpuCounter(servers);

  async function countKeys(): Promise<number> {
    let cursor = '0';
    let count = 0;
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${options.kvPrefix}*`, 'COUNT', 1000);
      cursor = next;
      count += keys.length;
    } while (cursor !== '0');
    return count;
  }

  const heapOf = (pid: number) => {
    const file = join(options.probeDir, `${pid}.json`);
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { heapUsed: number }).heapUsed / 2 ** 20 : NaN;
  };

  return {
    servers,
    async sample(): Promise<ResourceSample> {
      const [[connections], [outbox], tables, kvKeys] = await Promise.all([
        sql<
          { n: number; tx: number }[]
        >`select (select count(*)::int from pg_stat_activity where datname = ${database}) as n,
          (select (xact_commit + xact_rollback)::float8 from pg_stat_database where datname = ${database}) as tx`,
        sql<{ settlements: number; webhooks: number }[]>`select
          (select count(*)::int from settlements where status = 'PENDING') as settlements,
          (select count(*)::int from webhook_deliveries where status = 'PENDING')
            + (select count(*)::int from webhook_events) as webhooks`,
        sql<{ table: string; live: number; dead: number; seqRead: number }[]>`select relname as table,
          n_live_tup::float8 as live, n_dead_tup::float8 as dead, coalesce(seq_tup_read, 0)::float8 as "seqRead"
          from pg_stat_user_tables`,
        countKeys(),
      ]);
      return {
        at: Date.now(),
        rssMb: servers.map((pid) => rssKbOf(pid) / 1024),
        heapMb: servers.map(heapOf),
        cpuSeconds: cpuSeconds(),
        pgTables: Object.fromEntries(tables.map(({ table, ...counts }) => [table, counts])),
        // Less this watcher's own connection.
        pgConnections: connections!.n - 1,
        pgTransactions: connections!.tx,
        kvKeys,
        settlementsPending: outbox!.settlements,
        webhooksPending: outbox!.webhooks,
      };
    },
    /** Settlements by status, at the end. */
    async settlementStatuses(): Promise<Record<string, number>> {
      const rows = await sql<
        { status: string; n: number }[]
      >`select status, count(*)::int as n from settlements group by status`;
      return Object.fromEntries(rows.map((row) => [row.status, row.n]));
    },
    async close() {
      await sql.end();
      redis.disconnect();
    },
  };
}
