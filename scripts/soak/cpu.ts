// Where the machine's CPU goes during the soak, as CPU seconds used so far: each instance's server,
// PostgreSQL, Redis, anvil, the soak's own process, and the machine as a whole. A latency that
// grows while the request rate holds means some part's cost grew; this says whose.
import { readdirSync, readFileSync } from 'node:fs';
import { TICKS_PER_SECOND, procStat } from '../bench/proc-stat';

/** The machine's busy time (all CPUs, everything but idle and I/O wait), in CPU seconds. */
function machineBusySeconds(): number {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = ticks as number[];
  return (user! + nice! + system! + irq! + softirq! + steal!) / TICKS_PER_SECOND;
}

// Processes counted by name: PostgreSQL's backends come and go, and the postmaster's reaped
// children's time keeps what the gone ones used.
const BY_NAME: Record<string, (comm: string) => boolean> = {
  postgres: (comm) => comm === 'postgres',
  redis: (comm) => comm.startsWith('redis-server'),
  anvil: (comm) => comm === 'anvil',
};

/** Cumulative CPU seconds by part; `instancePids` are the servers, in order. */
export function cpuCounter(instancePids: number[]): () => Record<string, number> {
  return () => {
    const seconds: Record<string, number> = {};
    instancePids.forEach((pid, i) => {
      seconds[`instance ${i + 1}`] = (procStat(pid)?.ownTicks ?? NaN) / TICKS_PER_SECOND;
    });
    for (const name of Object.keys(BY_NAME)) seconds[name] = 0;
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!pid) continue;
      const stat = procStat(pid);
      if (!stat) continue;
      const name = Object.keys(BY_NAME).find((n) => BY_NAME[n]!(stat.comm));
      if (name) seconds[name]! += (stat.ownTicks + stat.reapedTicks) / TICKS_PER_SECOND;
    }
    const own = process.cpuUsage();
    seconds.soak = (own.user + own.system) / 1e6;
    seconds.machine = machineBusySeconds();
    return seconds;
  };
}
