// Two implementations of one endpoint measured side by side in one run, each round in turns (A, B,
// B, A, …: measure.ts's measureInTurns) so both see the same machine at nearly the same time; each
// round's ratio, and over the rounds the range. Used by bench:peer (ours against the documented
// peer), bench:libraries (our code against the library it replaced), bench:builds and the MCP pairs.
import { type Load, measure, measureInTurns, type Scenario, TURNS } from './measure';

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

export async function compare(
  comparisons: Comparison[],
  repeats: number,
  seconds: number,
  connections: number,
): Promise<Compared[]> {
  const results: Compared[] = comparisons.map(({ name, target }) => ({
    name,
    a: [],
    b: [],
    ratios: [],
    aCpu: [],
    bCpu: [],
    target,
  }));
  // A short warm-up of every side first (JIT, connection pools, prepared statements), not counted.
  for (const { a, b } of comparisons)
    for (const side of [a, b]) await measure(side.base, await side.scenario(), 2, connections);
  for (let round = 0; round < repeats; round++) {
    for (const [i, { name, a, b }] of comparisons.entries()) {
      // Alternate which side goes first, so neither always runs on a warmer (or busier) machine.
      const [ma, mb] = await measureInTurns(
        [await side(a), await side(b)],
        seconds,
        connections,
        TURNS,
        round % 2 === 1,
      );
      for (const m of [ma, mb]) if (m.non2xx > 0) throw new Error(`${m.name}: ${m.non2xx} answers were not 2xx`);
      const r = results[i]!;
      r.a.push(ma.rps);
      r.b.push(mb.rps);
      r.ratios.push(ma.rps / mb.rps);
      if (ma.cpuPerRequest !== undefined && mb.cpuPerRequest !== undefined) {
        r.aCpu.push(ma.cpuPerRequest);
        r.bCpu.push(mb.cpuPerRequest);
      }
      const cpu =
        ma.cpuPerRequest !== undefined && mb.cpuPerRequest !== undefined
          ? `, CPU ${ma.cpuPerRequest.toFixed(0)} / ${mb.cpuPerRequest.toFixed(0)} µs/req`
          : '';
      console.error(
        `  ${name}, round ${round + 1}: ${ma.rps.toFixed(0)} / ${mb.rps.toFixed(0)} req/s = ` +
          `${(ma.rps / mb.rps).toFixed(2)}×${cpu}`,
      );
    }
  }
  return results;
}

const side = async ({ base, cpuMicros, scenario }: Side): Promise<Load> => ({
  base,
  cpuMicros,
  scenario: await scenario(),
});

const range = (values: number[], digits: number, unit = '') => {
  const [low, high] = [Math.min(...values), Math.max(...values)];
  return low.toFixed(digits) === high.toFixed(digits)
    ? `${low.toFixed(digits)}${unit}`
    : `${low.toFixed(digits)}–${high.toFixed(digits)}${unit}`;
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
    `| endpoint | ${header[0]} | ${header[1]} | ${header[2]} (median; range) |` +
      `${cpu ? ' instance CPU µs/req (a; b) |' : ''}${targets ? ' target |' : ''}`,
    `|---|---:|---:|---:|${cpu ? '---:|' : ''}${targets ? '---:|' : ''}`,
  ];
  for (const r of results) {
    const target = !targets ? '' : r.target ? ` ≥ ${r.target}×${SHORTFALL[verdict(r.ratios, r.target)]} |` : ' |';
    const cpuCell = cpu ? ` ${r.aCpu.length ? `${range(r.aCpu, 0)}; ${range(r.bCpu, 0)}` : ''} |` : '';
    lines.push(`| ${r.name} | ${range(r.a, 0)} | ${range(r.b, 0)} | ${ratioCell(r.ratios)} |${cpuCell}${target}`);
  }
  return lines.join('\n');
}
