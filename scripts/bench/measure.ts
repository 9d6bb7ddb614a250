// One autocannon measurement and the report table: throughput as a ratio to the empty route and,
// where a scenario names one, to its own floor (the route doing only its unavoidable I/O), both
// measured in the same run, with p50 and p99 latency.
import autocannon from 'autocannon';

export interface Scenario {
  name: string;
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Per-request bodies (each used once), for requests that consume something, like a nonce. */
  bodies?: string[];
  /** Its own floor: a route doing only the I/O this endpoint cannot skip (scripts/bench/bench-routes.ts). */
  floor?: Scenario;
  /** The ratio to its own floor this scenario should reach (issue #16). */
  target?: number;
}

export interface Measurement {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  target?: number;
  /** The floor's measurement, when the scenario has one. */
  floor?: Measurement;
}

export async function measure(base: string, scenario: Scenario, seconds: number, connections: number): Promise<Measurement> {
  const bodies = scenario.bodies;
  let next = 0;
  const result = await autocannon({
    url: base + scenario.path,
    method: scenario.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...scenario.headers },
    body: scenario.body,
    connections,
    duration: seconds,
    ...(bodies && {
      amount: bodies.length,
      requests: [{ setupRequest: (request: any) => ({ ...request, body: bodies[next++ % bodies.length] }) }],
    }),
  });
  return {
    name: scenario.name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    target: scenario.target,
  };
}

export function report(baseline: Measurement, rows: Measurement[]): string {
  const lines = [
    '| endpoint | req/s | ratio to empty route | ratio to own floor | target | p50 ms | p99 ms | non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of [baseline, ...rows]) {
    const toFloor = row.floor ? row.rps / row.floor.rps : undefined;
    const target = row.target && toFloor !== undefined ? `≥ ${row.target}×${toFloor >= row.target ? '' : ' (missed)'}` : '';
    const floor = toFloor === undefined ? '' : `${toFloor.toFixed(2)}× (floor ${row.floor!.rps.toFixed(0)})`;
    lines.push(`| ${row.name} | ${row.rps.toFixed(0)} | ${(row.rps / baseline.rps).toFixed(2)}× | ${floor} | ${target} | ${row.p50} | ${row.p99} | ${row.non2xx} |`);
  }
  return lines.join('\n');
}

export const EMPTY: Scenario = { name: 'GET /api/health/live (empty route)', path: '/api/health/live' };

/**
 * The empty route (after a warm-up for JIT and connection pools), then each scenario, each floor
 * measured once, just before the first scenario it is the floor of; the report table.
 */
export async function measureAgainstEmpty(base: string, scenarios: Scenario[], seconds: number, connections: number): Promise<string> {
  await measure(base, EMPTY, 3, connections);
  const baseline = await measure(base, EMPTY, seconds, connections);
  const floors = new Map<string, Measurement>();
  const rows: Measurement[] = [];
  for (const scenario of scenarios) {
    let floor: Measurement | undefined;
    if (scenario.floor) {
      floor = floors.get(scenario.floor.name);
      if (!floor) {
        floor = await measure(base, scenario.floor, seconds, connections);
        floors.set(scenario.floor.name, floor);
        rows.push(floor);
      }
    }
    rows.push({ ...(await measure(base, scenario, seconds, connections)), floor });
  }
  return report(baseline, rows);
}
