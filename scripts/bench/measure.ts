// One autocannon measurement and the report table: throughput as a ratio to the empty route and,
// where a scenario names one, to its own floor (the route doing only its unavoidable I/O), both
// measured in the same run, with p50 and p99 latency.
import autocannon from 'autocannon';
import type { Instance } from './server';

export interface Scenario {
  name: string;
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Per-request bodies (each used once), for requests that consume something, like a nonce. */
  bodies?: string[];
  /** Run before each measurement of the scenario: tops up `bodies`, say (nonces expire in minutes). */
  prepare?: () => Promise<void>;
  /** Its own floor: a route doing only the I/O this endpoint cannot skip (scripts/bench/bench-routes.ts). */
  floor?: Scenario;
  /** The ratio to its own floor this scenario should reach (issue #16). */
  target?: number;
  /** A fixed load, requests per second in all, instead of as many as the connections get answered. */
  rate?: number;
}

export interface Measurement {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Requests answered, and over how many seconds. */
  total: number;
  seconds: number;
  target?: number;
  /** With a floor: the floor's req/s and this endpoint's ratio to it, one per round. */
  floorRps?: number[];
  floorRatios?: number[];
  /** With the instance's CPU clock: its CPU µs per request answered, over the load alone. */
  cpuPerRequest?: number;
}

// Where each scenario's single-use bodies have got to, so a second measurement takes fresh ones.
const used = new WeakMap<Scenario, number>();

/** How many of the scenario's single-use bodies no measurement has taken yet. */
export const unusedBodies = (scenario: Scenario): number => (scenario.bodies?.length ?? 0) - (used.get(scenario) ?? 0);

/** Counts the scenario's bodies before `end` as used, so no measurement sends them. */
export function skipBodies(scenario: Scenario, end: number): void {
  used.set(scenario, Math.max(used.get(scenario) ?? 0, end));
}

/**
 * Loads `base` with the scenario. `cpuMicros`, the instance's CPU clock, is read after `prepare`:
 * a verify scenario's prepare asks the instance for thousands of nonces, work that is not the
 * endpoint's (counted in, it made the untraced instance look 1.3–2.4× costlier per verify).
 */
export async function measure(
  base: string,
  scenario: Scenario,
  seconds: number,
  connections: number,
  cpuMicros?: () => number,
): Promise<Measurement> {
  await scenario.prepare?.();
  const cpuBefore = cpuMicros?.();
  const bodies = scenario.bodies;
  let next = used.get(scenario) ?? 0;
  if (bodies && next >= bodies.length)
    throw new Error(`${scenario.name}: its ${bodies.length} single-use bodies are all used (raise BENCH_VERIFIES)`);
  const options = {
    url: base + scenario.path,
    method: scenario.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...scenario.headers },
    body: scenario.body,
    connections,
    duration: seconds,
    ...(scenario.rate && { overallRate: scenario.rate }),
    ...(bodies && {
      // With `amount` autocannon ignores `duration`: the run is stopped after `seconds` below.
      amount: bodies.length - next,
      requests: [{ setupRequest: (request: any) => ({ ...request, body: bodies[next++ % bodies.length] }) }],
    }),
  } as autocannon.Options;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)));
    if (bodies) setTimeout(() => instance.stop(), seconds * 1000);
  });
  const cpuAfter = cpuMicros?.();
  if (bodies) used.set(scenario, next);
  // A run that ran out of single-use bodies early measured the pool, not the endpoint.
  if (bodies && result.duration < seconds * 0.97) {
    throw new Error(
      `${scenario.name}: its single-use bodies ran out after ${result.duration}s of ${seconds}s (raise BENCH_VERIFIES)`,
    );
  }
  return {
    name: scenario.name,
    // Per-second samples' mean; a stopped run's last second is partial, so there the total over the time.
    rps: bodies ? result.requests.total / result.duration : result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    total: result.requests.total,
    seconds: result.duration,
    target: scenario.target,
    ...(cpuBefore !== undefined && { cpuPerRequest: (cpuAfter! - cpuBefore) / Math.max(1, result.requests.total) }),
  };
}

/** A scenario at the instance that serves it, with that instance's CPU clock if it has one. */
export interface Load {
  base: string;
  scenario: Scenario;
  cpuMicros?: () => number;
  /** Run before each of this side's turns: switches the instance to it (tracing on or off, say). */
  select?: () => Promise<void>;
}

/**
 * BENCH_TURNS: how many turns each side of a pair takes in a round (default 5: 2 s each of 10).
 * autocannon ends a run on its one-second sample, so a turn lasts whole seconds.
 */
export const TURNS = Number(process.env.BENCH_TURNS ?? 5);

/**
 * One round of a pair: `turns` turns each, `seconds / turns` long, alternating which side goes
 * first (A B B A A B …), so a change of the machine's speed within the round reaches both sides
 * alike; each side's figures are over all its turns. In 10-second blocks the list floor measured
 * against itself read 0.81–1.21× on this host: its speed drifts within a minute.
 */
export async function measureInTurns(
  sides: [Load, Load],
  seconds: number,
  connections: number,
  turns: number,
  bFirst = false,
): Promise<[Measurement, Measurement]> {
  const taken: [Measurement[], Measurement[]] = [[], []];
  for (let turn = 0; turn < turns; turn++) {
    const order = (turn % 2 === 0) === bFirst ? [1, 0] : [0, 1];
    for (const i of order) {
      const { base, scenario, cpuMicros, select } = sides[i]!;
      await select?.();
      taken[i]!.push(await measure(base, scenario, seconds / turns, connections, cpuMicros));
    }
  }
  return [combine(taken[0]), combine(taken[1])];
}

// One measurement from several of one scenario: rates over the time they took together, latencies
// weighted by the requests of each.
function combine(parts: Measurement[]): Measurement {
  const sum = (pick: (m: Measurement) => number) => parts.reduce((n, m) => n + pick(m), 0);
  const total = sum((m) => m.total);
  const seconds = sum((m) => m.seconds);
  const weighted = (pick: (m: Measurement) => number) =>
    Math.round((sum((m) => pick(m) * m.total) / Math.max(1, total)) * 100) / 100;
  const cpu = parts.every((m) => m.cpuPerRequest !== undefined)
    ? sum((m) => m.cpuPerRequest! * Math.max(1, m.total))
    : undefined;
  return {
    ...parts[parts.length - 1]!,
    rps: total / seconds,
    p50: weighted((m) => m.p50),
    p99: weighted((m) => m.p99),
    non2xx: sum((m) => m.non2xx),
    total,
    seconds,
    ...(cpu !== undefined && { cpuPerRequest: cpu / Math.max(1, total) }),
  };
}

const range = (values: number[], digits: number) => {
  const [low, high] = [Math.min(...values), Math.max(...values)];
  return low.toFixed(digits) === high.toFixed(digits)
    ? low.toFixed(digits)
    : `${low.toFixed(digits)}–${high.toFixed(digits)}`;
};

export function report(baseline: Measurement, rows: Measurement[]): string {
  const lines = [
    '| endpoint | req/s | ratio to empty route | ratio to own floor (floor req/s) | target ' +
      '| p50 ms | p99 ms | non-2xx (all rounds, both sides) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of [baseline, ...rows]) {
    const ratios = row.floorRatios;
    const floor = ratios ? `${range(ratios, 2)}× (${range(row.floorRps!, 0)})` : '';
    const missed =
      ratios && row.target && Math.min(...ratios) < row.target
        ? Math.max(...ratios) >= row.target
          ? ' (not every round)'
          : ' (missed)'
        : '';
    const target = row.target && ratios ? `≥ ${row.target}×${missed}` : '';
    lines.push(
      `| ${row.name} | ${row.rps.toFixed(0)} | ${(row.rps / baseline.rps).toFixed(2)}× | ` +
        `${floor} | ${target} | ${row.p50} | ${row.p99} | ${row.non2xx} |`,
    );
  }
  return lines.join('\n');
}

export const EMPTY: Scenario = { name: 'GET /api/health/live (empty route)', path: '/api/health/live' };

/**
 * The empty route (after a warm-up for JIT and connection pools), then each scenario. One with a
 * floor is measured in `floorRounds` rounds with its floor, each round in turns (measureInTurns; the
 * floor first, then the endpoint first, …), each round's ratio kept: the machine's noise moves both
 * alike. The endpoint's req/s and latencies shown are its last round's.
 */
export async function measureAgainstEmpty(
  base: string,
  scenarios: Scenario[],
  seconds: number,
  connections: number,
  floorRounds = 2,
): Promise<string> {
  await measure(base, EMPTY, 3, connections);
  const baseline = await measure(base, EMPTY, seconds, connections);
  const rows: Measurement[] = [];
  for (const scenario of scenarios) {
    if (!scenario.floor) {
      rows.push(await measure(base, scenario, seconds, connections));
      continue;
    }
    const floorRps: number[] = [];
    const floorRatios: number[] = [];
    let last: Measurement | undefined;
    // Refusals on either side in any round: a side answered cheaper than its work (a used nonce's 401, a full cap's
    // 503).
    let non2xx = 0;
    for (let round = 0; round < floorRounds; round++) {
      let floor: Measurement;
      [floor, last] = await measureInTurns(
        [
          { base, scenario: scenario.floor },
          { base, scenario },
        ],
        seconds,
        connections,
        TURNS,
        round % 2 === 1,
      );
      floorRps.push(floor.rps);
      floorRatios.push(last.rps / floor.rps);
      non2xx += floor.non2xx + last.non2xx;
      const refused = floor.non2xx + last.non2xx ? ` (non-2xx: ${last.non2xx} / ${floor.non2xx})` : '';
      console.error(
        `  ${scenario.name}, round ${round + 1}: ${last.rps.toFixed(0)} / ` +
          `${floor.rps.toFixed(0)} req/s = ${(last.rps / floor.rps).toFixed(2)}×${refused}`,
      );
    }
    rows.push({ ...last!, floorRps, floorRatios, non2xx });
  }
  return report(baseline, rows);
}

/**
 * The cost of tracing (docs/api.md#observability): each scenario on one instance with tracing off
 * and on (`setTracing` switches it inside the process before each turn), in `rounds` rounds of
 * turns (measureInTurns); per round the ratio on/off of req/s, and of CPU time per request (the
 * instance's own process, read from /proc: steadier than req/s on a machine others are loading).
 * One process against itself: the same heap, JIT and connections on both sides.
 */
export async function measureTracingCost(
  instance: Instance,
  setTracing: (on: boolean) => Promise<void>,
  scenarios: Scenario[],
  seconds: number,
  connections: number,
  rounds = 2,
): Promise<string> {
  const lines = [
    '| endpoint | req/s off / on (last round) | ratio of req/s on/off per round | CPU µs ' +
      'per request off/on per round | ratio of CPU per request off/on per round | p99 ms off / ' +
      'on | non-2xx off / on (all rounds) |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const side = (on: boolean, scenario: Scenario): Load => ({
    base: instance.url,
    scenario,
    cpuMicros: instance.cpuMicros,
    select: () => setTracing(on),
  });
  for (const scenario of scenarios) {
    // Each side warmed on the scenario itself first: the first spans a process exports, and the
    // code that makes them, are cold (a verify's first traced rounds ran 0.65-0.77 of the untraced
    // CPU per request, its later ones 0.91).
    await measureInTurns([side(false, scenario), side(true, scenario)], seconds, connections, 1);
    const rpsRatios: number[] = [];
    const cpuRatios: number[] = [];
    const cpus: string[] = [];
    let off: Measurement | undefined;
    let on: typeof off;
    // A side answering errors does other work than the other: counted, so a ratio is not read blind.
    const non2xx = { off: 0, on: 0 };
    for (let round = 0; round < rounds; round++) {
      [off, on] = await measureInTurns(
        [side(false, scenario), side(true, scenario)],
        seconds,
        connections,
        TURNS,
        round % 2 === 1,
      );
      non2xx.off += off.non2xx;
      non2xx.on += on.non2xx;
      rpsRatios.push(on.rps / off.rps);
      cpuRatios.push(off.cpuPerRequest! / on.cpuPerRequest!);
      cpus.push(`${off.cpuPerRequest!.toFixed(0)}/${on.cpuPerRequest!.toFixed(0)}`);
    }
    const list = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');
    lines.push(
      `| ${scenario.name} | ${off!.rps.toFixed(0)} / ${on!.rps.toFixed(0)} | ` +
        `${list(rpsRatios)} | ${cpus.join(', ')} | ${list(cpuRatios)} | ${off!.p99} / ${on!.p99} ` +
        `| ${non2xx.off} / ${non2xx.on} |`,
    );
  }
  return lines.join('\n');
}
