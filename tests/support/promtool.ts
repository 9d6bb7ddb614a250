// Prometheus's own parser and linter for the text format: `promtool check metrics` from Debian's
// prometheus package (.ci/run installs it). Answers its exit code and what it printed.
import { spawnSync } from 'node:child_process';

export function promtoolCheck(exposition: string): { status: number | null; output: string } {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: exposition, encoding: 'utf8' });
  if (run.error) throw new Error(`promtool: ${run.error.message} (apt-get install prometheus)`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}
