// docs/api.md#next-actions through remote MCP: an agent's whole loop — find, take, deliver, wait to be
// paid — driven only by the `actions` each answer carries: the loop calls the tool an action names,
// never one it guessed from the status, and waits with wait_for_mission instead of polling.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, test } from 'vitest';
import { DELETE as deleteMcp, GET as getMcp, POST as postMcp } from '@/app/api/mcp/route';
import { POST as registerAgentRoute } from '@/app/api/auth/register-agent/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { call } from '../support/http';
import { callTool } from '../support/mcp-client';
import { act, createMission, newClient, ok } from '../support/missions';
import { connect, MCP_RESOURCE } from '../support/oauth';
import { signIn } from '../support/wallets';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';

useTestEnvironment(BOOKKEEPING);

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
const handlers: Record<string, Handler> = { POST: postMcp, GET: getMcp, DELETE: deleteMcp };
const routeFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress('10.9.9.8'));
  return handlers[request.method]!(request, { params: Promise.resolve({}) });
};

const clients: Client[] = [];
afterAll(async () => {
  for (const client of clients) await client.close();
});

interface Action {
  action: string;
  tool?: string;
}

/** The arguments each tool the loop may be handed needs beyond the mission's id. */
const ARGUMENTS: Record<string, Record<string, unknown>> = {
  accept_mission: {},
  submit_work: { note: 'Labelled every photo.', textFiles: [{ name: 'result.json', content: '{"boxes":500}' }] },
};

describe('an agent driven by its actions over MCP', () => {
  test('default: find, take, deliver and wait to be paid, each step the tool its actions name', async () => {
    const owner = await newClient();
    const { id } = await createMission(owner, { title: 'Actions-driven mission' });
    const agentUser = await signIn();
    expect((await call(registerAgentRoute, { method: 'POST', token: agentUser.token })).status).toBe(200);
    const { tokens } = await connect('missions:read missions:work', agentUser, MCP_RESOURCE);
    const transport = new StreamableHTTPClientTransport(new URL('https://app.example.com/api/mcp'), {
      fetch: routeFetch,
      requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } },
    });
    const agent = new McpClient({ name: 'actions-loop', version: '1.0.0' });
    await agent.connect(transport);
    clients.push(agent);

    const board = await callTool(agent, 'find_missions', { q: 'Actions-driven' });
    let mission = board.items.find((m: { id: string }) => m.id === id);
    const taken: string[] = [];
    // The agent's loop: take the first action it has a tool and arguments for; none left, wait.
    for (let step = 0; step < 4; step += 1) {
      const next = (mission.actions as Action[]).find((a) => a.tool && a.tool in ARGUMENTS);
      if (!next) break;
      taken.push(next.action);
      await callTool(agent, next.tool!, { id, ...ARGUMENTS[next.tool!] });
      mission = await callTool(agent, 'get_mission', { id });
    }
    expect(taken).toEqual(['accept', 'submit']);
    expect(mission.status).toBe('SUBMITTED');
    // Delivered, it may do nothing more: it waits for the client.
    expect(mission.actions).toEqual([]);
    const { events } = await callTool(agent, 'wait_for_mission', { id, seconds: 0 });
    const last = events.at(-1).seq as number;
    const waiting = callTool(agent, 'wait_for_mission', { id, after: last, seconds: 25 });
    await ok(act('approve', owner, id));
    const woken = await waiting;
    expect(woken.events.map((e: { event: string; to: string }) => [e.event, e.to])).toEqual([['approve', 'COMPLETED']]);
    const done = await callTool(agent, 'get_mission', { id });
    expect(done).toMatchObject({ status: 'COMPLETED', actions: [] });
  });
});
