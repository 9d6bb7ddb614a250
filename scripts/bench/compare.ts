// Two implementations of one endpoint measured side by side in one run: A, then B, then A, … so
// both see the same machine at nearly the same time; each pair's ratio, and over the repeats the
// range. Used by bench:peer (ours against the documented peer) and bench:libraries (our code
// against the library it replaced).
import { measure, type Scenario } from './measure';

export interface Side {
  base: string;
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
  target?: number;
}

export async function compare(comparisons: Comparison[], repeats: number, seconds: number, connections: number): Promise<Compared[]> {
  const results: Compared[] = comparisons.map(({ name, target }) => ({ name, a: [], b: [], ratios: [], target }));
  // A short warm-up of every side first (JIT, connection pools, prepared statements), not counted.
  for (const { a, b } of comparisons) for (const side of [a, b]) await measure(side.base, await side.scenario(), 2, connections);
  for (let round = 0; round < repeats; round++) {
    for (const [i, { name, a, b }] of comparisons.entries()) {
      // Alternate which side goes first, so neither always runs on a warmer (or busier) machine.
      const order = round % 2 === 0 ? [a, b] : [b, a];
      const [first, second] = [await measureSide(order[0]!, seconds, connections), await measureSide(order[1]!, seconds, connections)];
      const [ra, rb] = round % 2 === 0 ? [first, second] : [second, first];
      results[i]!.a.push(ra);
      results[i]!.b.push(rb);
      results[i]!.ratios.push(ra / rb);
      console.error(`  ${name}, round ${round + 1}: ${ra.toFixed(0)} / ${rb.toFixed(0)} req/s = ${(ra / rb).toFixed(2)}×`);
    }
  }
  return results;
}

async function measureSide(side: Side, seconds: number, connections: number): Promise<number> {
  const scenario = await side.scenario();
  const result = await measure(side.base, scenario, seconds, connections);
  if (result.non2xx > 0) throw new Error(`${scenario.name}: ${result.non2xx} answers were not 2xx`);
  return result.rps;
}

const range = (values: number[], digits: number, unit = '') => {
  const [low, high] = [Math.min(...values), Math.max(...values)];
  return low.toFixed(digits) === high.toFixed(digits) ? `${low.toFixed(digits)}${unit}` : `${low.toFixed(digits)}–${high.toFixed(digits)}${unit}`;
};

/** The table: each side's req/s and the ratio as ranges over the repeats, and the target. */
export function comparisonTable(results: Compared[], header: [string, string, string]): string {
  const lines = [`| endpoint | ${header[0]} | ${header[1]} | ${header[2]} | target |`, '|---|---:|---:|---:|---:|'];
  for (const r of results) {
    const target = r.target ? `≥ ${r.target}×${Math.min(...r.ratios) >= r.target ? '' : Math.max(...r.ratios) >= r.target ? ' (not in every run)' : ' (missed)'}` : '';
    lines.push(`| ${r.name} | ${range(r.a, 0)} | ${range(r.b, 0)} | ${range(r.ratios, 2, '×')} | ${target} |`);
  }
  return lines.join('\n');
}
