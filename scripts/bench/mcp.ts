// The remote MCP's cost (API.md §17): the tool call find_missions through POST /api/mcp against the
// authenticated GET /api/missions it wraps, both with the same bearer token, measured as an
// endpoint against its floor so the ratio comes from one run (target: MCP ≥ 0.77× the list's
// throughput, i.e. at most 1.3× its cost).
import type { Scenario } from './measure';

const FIND_MISSIONS = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_missions', arguments: {} } });

export function mcpScenario(label: string, token: string): Scenario {
  const authorization = `Bearer ${token}`;
  return {
    name: `POST /api/mcp tools/call find_missions (${label})`,
    method: 'POST',
    path: '/api/mcp',
    headers: { authorization, accept: 'application/json, text/event-stream' },
    body: FIND_MISSIONS,
    floor: { name: `GET /api/missions (${label}, what the tool call wraps)`, path: '/api/missions', headers: { authorization } },
    target: 0.77,
  };
}

/** One call before measuring: a tool error is answered 200 too, so autocannon alone would not see it. */
export async function checkMcpScenario(base: string, scenario: Scenario): Promise<void> {
  const response = await fetch(base + scenario.path, { method: 'POST', headers: { 'content-type': 'application/json', ...scenario.headers }, body: scenario.body });
  const answer = (await response.json()) as { result?: { isError?: boolean; structuredContent?: { items?: unknown[] } }; error?: unknown };
  const items = answer.result?.structuredContent?.items;
  if (response.status !== 200 || answer.result?.isError || !Array.isArray(items) || items.length === 0) {
    throw new Error(`${scenario.name}: not a page of missions: ${response.status} ${JSON.stringify(answer).slice(0, 300)}`);
  }
}
