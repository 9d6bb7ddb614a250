// The remote MCP's cost (docs/api.md#mcp): the tool call find_missions through POST /api/mcp against the
// authenticated GET /api/missions it wraps, both with the same bearer token, measured side by side
// in one run (compare.ts: alternating, several rounds), as throughput and as the instance's CPU per
// request — on a machine other people load, CPU per request is the steadier of the two. Target:
// MCP at most 1.3× the GET's cost, i.e. ≥ 0.77× its throughput.
import type { Compared, Comparison } from './compare';
import type { Scenario } from './measure';

const FIND_MISSIONS = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'find_missions', arguments: {} },
});
export const MCP_TARGET = 0.77;
const MCP_FLOOR = 'MCP floor / list floor (the bound for any MCP call over the GET)';
const SDK_FLOOR = 'MCP SDK floor / list floor (the same served by the SDK: what the plain path saves)';
// Streamable HTTP: a POST must accept both a JSON answer and an event stream.
const ACCEPT = 'application/json, text/event-stream';

// BENCH_MCP_RATE: both sides of every pair at this fixed load (req/s) instead of each at its most.
// A process's CPU per request falls as its load rises (more requests per event-loop turn and per
// syscall), so at saturation the faster side of a pair is also measured cheaper per request.
const RATE = process.env.BENCH_MCP_RATE ? Number(process.env.BENCH_MCP_RATE) : undefined;
const atRate = (scenario: Scenario): Scenario => (RATE ? { ...scenario, rate: RATE } : scenario);

export function toolCall(label: string, authorization: string): Scenario {
  return {
    name: `POST /api/mcp tools/call find_missions (${label})`,
    method: 'POST',
    path: '/api/mcp',
    headers: { authorization, accept: ACCEPT },
    body: FIND_MISSIONS,
  };
}

const listGet = (label: string, authorization: string): Scenario => ({
  name: `GET /api/missions (${label})`,
  path: '/api/missions',
  headers: { authorization },
});

export function mcpComparisons(
  base: string,
  cpuMicros: () => number,
  tokens: { label: string; token: string }[],
): Comparison[] {
  return tokens.map(({ label, token }) => {
    const authorization = `Bearer ${token}`;
    return {
      name: `MCP find_missions / GET /api/missions (${label})`,
      a: { base, cpuMicros, scenario: () => atRate(toolCall(label, authorization)) },
      b: { base, cpuMicros, scenario: () => atRate(listGet(label, authorization)) },
      target: MCP_TARGET,
    };
  });
}

/**
 * The GET against itself, alternated as the pairs are (an A/A test): what a round's CPU ratio can resolve in this run.
 */
export function listAgainstItself(
  base: string,
  cpuMicros: () => number,
  { label, token }: { label: string; token: string },
): Comparison {
  const side = { base, cpuMicros, scenario: () => atRate(listGet(label, `Bearer ${token}`)) };
  return { name: `GET /api/missions against itself (${label}; A/A: what the rounds resolve)`, a: side, b: side };
}

/**
 * The bound in the same rounds, against the list's floor: a route doing only what any MCP call
 * wrapping the list must (read a POSTed JSON-RPC message, the same page read as the list's floor,
 * the page answered as a tool result's text) — no MCP server can do better than this ratio. Beside
 * it, the same served by the MCP SDK's Server and transport built per request, as the SDK's
 * stateless example does: what a plain tools/call saves by not building them (lib/mcp/plain-tool-call.ts).
 */
export function mcpFloorComparisons(base: string, cpuMicros: () => number, listFloor: Scenario): Comparison[] {
  const floors: [string, Scenario, number?][] = [
    [
      MCP_FLOOR,
      {
        name: "floor: POST JSON-RPC + the list floor's read, answered as a tool result",
        method: 'POST',
        path: '/api/bench-floor/mcp-page',
        body: FIND_MISSIONS,
      },
      MCP_TARGET,
    ],
    [
      SDK_FLOOR,
      {
        name: "floor: the same through the MCP SDK's Server and transport",
        method: 'POST',
        path: '/api/bench-floor/mcp-sdk-page',
        headers: { accept: ACCEPT },
        body: FIND_MISSIONS,
      },
    ],
  ];
  return floors.map(([name, floor, target]) => ({
    name,
    a: { base, cpuMicros, scenario: () => atRate(floor) },
    b: { base, cpuMicros, scenario: () => atRate(listFloor) },
    target,
  }));
}

/** One call before measuring: a tool error is answered 200 too, so autocannon alone would not see it. */
export async function checkMcpComparison(comparison: Comparison): Promise<void> {
  const { base } = comparison.a;
  const scenario = await comparison.a.scenario();
  const response = await fetch(base + scenario.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...scenario.headers },
    body: scenario.body,
  });
  const answer = (await response.json()) as { result?: { isError?: boolean; content?: { text?: string }[] } };
  const text = answer.result?.content?.[0]?.text;
  const items =
    answer.result?.isError || text === undefined ? undefined : (JSON.parse(text) as { items?: unknown[] }).items;
  if (response.status !== 200 || answer.result?.isError || !Array.isArray(items) || items.length === 0) {
    throw new Error(
      `${scenario.name}: not a page of missions: ${response.status} ${JSON.stringify(answer).slice(0, 300)}`,
    );
  }
}

/** The cost ratio from CPU per request, each round's: MCP's over the GET's (target ≤ 1/MCP_TARGET). */
export function cpuCostLines(results: Compared[]): string {
  return results
    .filter((r) => r.aCpu.length > 0)
    .map((r) => {
      const ratios = r.aCpu.map((cpu, i) => cpu / r.bCpu[i]!);
      const line = `- ${r.name}: instance CPU per request ${ratios.map((x) => `${x.toFixed(2)}×`).join(', ')}`;
      if (!r.target) return line;
      const bound = 1 / MCP_TARGET;
      const verdict =
        Math.max(...ratios) <= bound ? 'met' : Math.min(...ratios) <= bound ? 'not every round' : 'missed';
      return `${line} (target ≤ ${bound.toFixed(2)}×: ${verdict})`;
    })
    .join('\n');
}

/**
 * The bound itself, each round's, for each MCP / GET pair: the GET's CPU plus what the MCP floor
 * costs over the list floor (the protocol's own work — the message, the page escaped into a result
 * and answered). A tool call that does the GET's work costs no less.
 */
export function boundLines(results: Compared[]): string {
  const floor = results.find((r) => r.name === MCP_FLOOR);
  if (!floor || floor.aCpu.length === 0) return '';
  return results
    .filter((r) => r.name.startsWith('MCP find_missions') && r.bCpu.length === floor.aCpu.length)
    .map((r) => {
      const bounds = r.bCpu.map((get, i) => (get + floor.aCpu[i]! - floor.bCpu[i]!) / get);
      return (
        `- bound for ${r.name}: (GET + MCP floor − list floor) / GET ` +
        `${bounds.map((x) => `${x.toFixed(2)}×`).join(', ')}`
      );
    })
    .join('\n');
}
