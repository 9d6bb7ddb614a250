// The Prometheus text format (version 0.0.4) of GET /api/metrics, checked inside `npm test` by a parser
// from npm, prom2javascript: of the JS parsers the registry has (parse-prometheus-text-format,
// exposition, prom2javascript) the only one that refuses malformed text — a line that is no sample,
// a value that is no number, an unclosed label set, a histogram without its +Inf bucket — where the
// others return whatever they could read. What it does not check (every family typed and described,
// no series twice) is checked here. Prometheus's own `promtool check metrics` runs in CI on the text
// the test leaves (`.ci/run`, `.ci/promtool-check`): it is not an npm package.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMetricsFromIterator, type PromMetrics } from 'prom2javascript';

/** Where the checked text is left for `.ci/promtool-check` (test-results/ is not committed). */
export const EXPOSITION_FILE = join(process.cwd(), 'test-results', 'metrics.prom');

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? \S+$/;

/** Parses the text, or throws naming what is wrong with it. */
export async function parseExposition(text: string): Promise<PromMetrics> {
  if (!text.endsWith('\n')) throw new Error('the exposition does not end with a newline');
  const lines = text.slice(0, -1).split('\n');
  const metrics = await getMetricsFromIterator(lines[Symbol.iterator]());
  const seen = new Set<string>();
  for (const line of lines) {
    if (line.startsWith('#') || line === '') continue;
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`not a sample line: ${line}`);
    const series = `${sample[1]}${sample[2] ?? ''}`;
    if (seen.has(series)) throw new Error(`series twice: ${series}`);
    seen.add(series);
  }
  for (const [name, { type, help }] of Object.entries(metrics)) {
    if (!type || type === 'unknown' || type === 'untyped') throw new Error(`${name} has no # TYPE`);
    if (!help) throw new Error(`${name} has no # HELP`);
  }
  return metrics;
}

/** Leaves `text` for Prometheus's promtool, which CI runs on it after the suite. */
export function keepForPromtool(text: string): void {
  mkdirSync(join(EXPOSITION_FILE, '..'), { recursive: true });
  writeFileSync(EXPOSITION_FILE, text);
}
