// A process's line in /proc/<pid>/stat, for the benchmarks and the soak: its command, its parent,
// and its CPU time — its own (utime + stime, all threads) and its reaped children's (cutime +
// cstime) — in clock ticks, 100 a second on Linux.
import { readFileSync } from 'node:fs';

export const TICKS_PER_SECOND = 100;

export interface ProcStat {
  comm: string;
  ppid: number;
  ownTicks: number;
  reapedTicks: number;
}

/** The process's stat, or undefined once it is gone. */
export function procStat(pid: number): ProcStat | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const close = stat.lastIndexOf(')');
  // After the command: state, ppid, …; utime, stime, cutime and cstime are the 12th to 15th.
  const fields = stat
    .slice(close + 2)
    .split(' ')
    .map(Number);
  return {
    comm: stat.slice(stat.indexOf('(') + 1, close),
    ppid: fields[1]!,
    ownTicks: fields[11]! + fields[12]!,
    reapedTicks: fields[13]! + fields[14]!,
  };
}
