// `npm run bench:mcp` (docs/performance.md#the-agents-loop-over-mcp): an agent's whole
// loop — find → accept → submit → approve → paid — over REST and over the remote MCP, each step one
// HTTP request (a JSON-RPC tools/call to /api/mcp, or the REST call the tool wraps), on one
// production instance over PostgreSQL + Redis, alternating mission by mission (REST, MCP, MCP, REST …)
// in one run. Reports each step's median both ways and their ratio; bound: every step's MCP median
// ≤ 1.3× its REST median. One authentication per MCP request is held by a test
// (tests/integration/mcp-remote.test.ts: one revocation read a tool call).
//
//   MCP_LOOPS (40: missions, half each way)  MCP_DIST_DIR (.next: the build)
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { productionEnv, SIWE_DOMAIN, startInstance } from '../../tests/support/faults/instances';
import { createClient } from '../../sdk/src/index';
import { balancer } from '../soak/balancer';
import { ensureBuild, freshDatabase } from './server';

const loops = Number(process.env.MCP_LOOPS ?? 40);
const distDir = process.env.MCP_DIST_DIR;
const BOUND = 1.3;
const adminUrl = process.env.MCP_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.MCP_REDIS_URL ?? 'redis://127.0.0.1:6379/8';
const PUBLIC_ORIGIN = `http://${SIWE_DOMAIN}`;
const STEPS = ['find', 'accept', 'submit', 'approve', 'paid'] as const;
type Step = (typeof STEPS)[number];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2 : NaN;
};

async function main() {
  if (!distDir) ensureBuild();
  const databaseUrl = await freshDatabase(adminUrl, 'bench_mcp');
  const env = productionEnv(
    { databaseUrl, redisUrl },
    {
      KV_PREFIX: `mcp:${Date.now()}:`,
      TRUST_PROXY: '1',
      WRITE_RATE_LIMIT_PER_MINUTE: '100000',
      ...(distDir && { NEXT_DIST_DIR: distDir }),
    },
  );
  const instance = await startInstance(env);
  try {
    await fetch(`${instance.url}/api/health`);
    const lb = balancer([instance.url]);
    const signedIn = async (ip: string) => {
      const tm = createClient({
        baseUrl: PUBLIC_ORIGIN,
        account: privateKeyToAccount(generatePrivateKey()),
        maxRetries: 0,
        fetch: lb.fetchFor(ip),
      });
      return (await tm.signIn()).token as string;
    };
    const request = async (method: string, path: string, token: string, body?: unknown) => {
      const started = performance.now();
      const response = await fetch(`${instance.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'x-forwarded-for': '10.8.0.1',
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...(path === '/api/mcp' && { accept: 'application/json, text/event-stream' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      const ms = performance.now() - started;
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
      return { ms, json: JSON.parse(text) as any };
    };
    let rpcId = 0;
    const tool = async (token: string, name: string, args: Record<string, unknown>) => {
      const { ms, json } = await request('POST', '/api/mcp', token, {
        jsonrpc: '2.0',
        id: ++rpcId,
        method: 'tools/call',
        params: { name, arguments: args },
      });
      if (json.error || json.result?.isError) throw new Error(`${name}: ${JSON.stringify(json).slice(0, 300)}`);
      return ms;
    };

    // The parties: clients post (20 an hour each), one agent works every mission.
    console.log(`preparing ${loops} missions …`);
    const agentSignIn = await signedIn('10.8.1.1');
    const agent = (await request('POST', '/api/auth/register-agent', agentSignIn)).json.token as string;
    const missions: { id: string; client: string }[] = [];
    for (let at = 0; at < loops; at += 15) {
      const client = await signedIn(`10.8.2.${at}`);
      for (let i = at; i < Math.min(loops, at + 15); i++) {
        const { json } = await request('POST', '/api/missions', client, {
          title: `MCP bench ${i}`,
          description: 'A mission of the MCP loop benchmark.',
          category: 'data',
          tags: ['bench'],
          reward: '2000000',
          deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        });
        missions.push({ id: json.id, client });
      }
    }
    const rest = async (m: { id: string; client: string }): Promise<Record<Step, number>> => ({
      find: (await request('GET', '/api/missions?limit=20', agent)).ms,
      accept: (await request('POST', `/api/missions/${m.id}/accept`, agent, {})).ms,
      submit: (await request('POST', `/api/missions/${m.id}/submit`, agent, { note: 'Done.' })).ms,
      approve: (await request('POST', `/api/missions/${m.id}/approve`, m.client, {})).ms,
      paid: (await request('GET', '/api/agents/me/earnings', agent)).ms,
    });
    const mcp = async (m: { id: string; client: string }): Promise<Record<Step, number>> => ({
      find: await tool(agent, 'find_missions', { limit: 20 }),
      accept: await tool(agent, 'accept_mission', { id: m.id }),
      submit: await tool(agent, 'submit_work', { id: m.id, note: 'Done.' }),
      approve: await tool(m.client, 'approve_mission', { id: m.id }),
      paid: await tool(agent, 'get_earnings', {}),
    });
    // Warm both paths, then alternate in pairs (A B B A …) so neither side always goes first.
    await rest(missions[0]!);
    await mcp(missions[1]!);
    const times = { rest: [] as Record<Step, number>[], mcp: [] as Record<Step, number>[] };
    for (let i = 2; i < missions.length; i++) {
      const useMcp = [1, 2].includes(i % 4);
      times[useMcp ? 'mcp' : 'rest'].push(await (useMcp ? mcp : rest)(missions[i]!));
    }
    const lines: string[] = [];
    let pass = true;
    for (const step of STEPS) {
      const r = median(times.rest.map((t) => t[step]));
      const m = median(times.mcp.map((t) => t[step]));
      pass &&= m / r <= BOUND;
      lines.push(`${step} ${m.toFixed(1)}/${r.toFixed(1)} ms = ${(m / r).toFixed(2)}×`);
    }
    console.log(
      `MCP ${pass ? 'PASS' : 'FAIL'} (one instance, PostgreSQL + Redis; ${times.mcp.length} loops over MCP, ` +
        `${times.rest.length} over REST; median MCP/REST, bound ≤ ${BOUND}×): ${lines.join('; ')}`,
    );
    process.exitCode = pass ? 0 : 1;
  } finally {
    await instance.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
