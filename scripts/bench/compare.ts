// Two implementations of one endpoint measured side by side in one run: A, then B, then A, … so
// both see the same machine at nearly the same time; each pair's ratio, and over the repeats the
// range. Used by bench:peer (ours against the documented peer) and bench:libraries (our code
// against the library it replaced).
import { measure, type Scenario } from './measure';

export interface Side {
  base: string;
  /** The instance's CPU clock (Instance.cpuMicros): with it, CPU per request is reported too. */
  cpuMicros?: () => number;
  /** Built fresh for each repeat: verify bodies are consumed. */
  scenario: () => Promise<Scenario> | Scenario;
}

export interface Comparison {
  name: string;
  a: Side;
  b: Side;
  /** The ratio a/b should reach. */
  target?: number;
}

export interface Compared {
  name: string;
  a: number[];
  b: number[];
  ratios: number[];
  /** The instance's CPU per request answered, µs, when both sides have a CPU clock. */
  aCpu: number[];
  bCpu: number[];
  target?: number;
}

export async function compare(comparisons: Comparison[], repeats: number, seconds: number, connections: number): Promise<Compared[]> {
  const results: Compared[] = comparisons.map(({ name, target }) => ({ name, a: [], b: [], ratios: [], aCpu: [], bCpu: [], target }));
  // A short warm-up of every side first (JIT, connection pools, prepared statements), not counted.
  for (const { a, b } of comparisons) for (const side of [a, b]) await measure(side.base, await side.scenario(), 2, connections);
  for (let round = 0; round < repeats; round++) {
    for (const [i, { name, a, b }] of comparisons.entries()) {
      // Alternate which side goes first, so neither always runs on a warmer (or busier) machine.
      const order = round % 2 === 0 ? [a, b] : [b, a];
      const [first, second] = [await measureSide(order[0]!, seconds, connections), await measureSide(order[1]!, seconds, connections)];
      const [ma, mb] = round % 2 === 0 ? [first, second] : [second, first];
      const [ra, rb] = [ma.rps, mb.rps];
      const r = results[i]!;
      r.a.push(ra);
      r.b.push(rb);
      r.ratios.push(ra / rb);
      if (ma.cpu !== undefined && mb.cpu !== undefined) r.aCpu.push(ma.cpu), r.bCpu.push(mb.cpu);
      const cpu = ma.cpu !== undefined && mb.cpu !== undefined ? `, CPU ${ma.cpu.toFixed(0)} / ${mb.cpu.toFixed(0)} µs/req` : '';
      console.error(`  ${name}, round ${round + 1}: ${ra.toFixed(0)} / ${rb.toFixed(0)} req/s = ${(ra / rb).toFixed(2)}×${cpu}`);
    }
  }
  return results;
}

async function measureSide(side: Side, seconds: number, connections: number): Promise<{ rps: number; cpu?: number }> {
  const scenario = await side.scenario();
  const result = await measure(side.base, scenario, seconds, connections, side.cpuMicros);
  if (result.non2xx > 0) throw new Error(`${scenario.name}: ${result.non2xx} answers were not 2xx`);
  return { rps: result.rps, cpu: result.cpuPerRequest };
}

const range = (values: number[], digits: number, unit = '') => {
  const [low, high] = [Math.min(...values), Math.max(...values)];
  return low.toFixed(digits) === high.toFixed(digits) ? `${low.toFixed(digits)}${unit}` : `${low.toFixed(digits)}–${high.toFixed(digits)}${unit}`;
};

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Ratios over the repeats: their median, then their range. */
export const ratioCell = (ratios: number[]) => `${median(ratios).toFixed(2)}× (${range(ratios, 2, '×')})`;

// Each verdict as the table shows it after the target.
const SHORTFALL = { met: '', 'not every round': ' (median; not every round)', missed: ' (missed)' };

/** Whether ratios reached a target: in every round, or in the median only, or not. */
export function verdict(ratios: number[], target: number): keyof typeof SHORTFALL {
  return Math.min(...ratios) >= target ? 'met' : median(ratios) >= target ? 'not every round' : 'missed';
}

/**
 * The table: each side's req/s and the ratio as ranges over the repeats (median ratio first), the
 * instance CPU per request where measured, and the targets where there are any.
 */
export function comparisonTable(results: Compared[], header: [string, string, string]): string {
  const cpu = results.some((r) => r.aCpu.length > 0);
  const targets = results.some((r) => r.target);
  const lines = [
    `| endpoint | ${header[0]} | ${header[1]} | ${header[2]} (median; range) |${cpu ? ' instance CPU µs/req (a; b) |' : ''}${targets ? ' target |' : ''}`,
    `|---|---:|---:|---:|${cpu ? '---:|' : ''}${targets ? '---:|' : ''}`,
  ];
  for (const r of results) {
    const target = !targets ? '' : r.target ? ` ≥ ${r.target}×${SHORTFALL[verdict(r.ratios, r.target)]} |` : ' |';
    const cpuCell = cpu ? ` ${r.aCpu.length ? `${range(r.aCpu, 0)}; ${range(r.bCpu, 0)}` : ''} |` : '';
    lines.push(`| ${r.name} | ${range(r.a, 0)} | ${range(r.b, 0)} | ${ratioCell(r.ratios)} |${cpuCell}${target}`);
  }
  return lines.join('\n');
}
