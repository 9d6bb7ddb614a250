// One autocannon measurement and the report table: throughput as a ratio to the empty route
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
  /** The ratio this scenario should reach, from the issue texts. */
  target?: number;
}

export interface Measurement {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  target?: number;
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
    '| endpoint | req/s | ratio to empty route | target | p50 ms | p99 ms | non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of [baseline, ...rows]) {
    const ratio = row.rps / baseline.rps;
    const target = row.target ? `≥ ${row.target}×${ratio >= row.target ? '' : ' (missed)'}` : '';
    lines.push(`| ${row.name} | ${row.rps.toFixed(0)} | ${ratio.toFixed(2)}× | ${target} | ${row.p50} | ${row.p99} | ${row.non2xx} |`);
  }
  return lines.join('\n');
}

const EMPTY: Scenario = { name: 'GET /api/health/live (empty route)', path: '/api/health/live' };

/** The empty route (after a warm-up for JIT and connection pools), then each scenario; the report table. */
export async function measureAgainstEmpty(base: string, scenarios: Scenario[], seconds: number, connections: number): Promise<string> {
  await measure(base, EMPTY, 3, connections);
  const baseline = await measure(base, EMPTY, seconds, connections);
  const rows = [];
  for (const scenario of scenarios) rows.push(await measure(base, scenario, seconds, connections));
  return report(baseline, rows);
}
