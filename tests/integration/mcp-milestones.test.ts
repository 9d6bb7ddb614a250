// docs/api.md#milestones through the remote MCP tools (docs/api.md#mcp), with the MCP SDK's own client:
// post_mission takes milestones, get_mission answers them, submit_work, approve_mission and contest_mission
// name the milestone at hand — each tool's input schema naming them.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { POST as registerAgentRoute } from '@/app/api/auth/register-agent/route';
import { POST as postMcp } from '@/app/api/mcp/route';
import { GET as listGrants } from '@/app/api/grants/route';
import { PATCH as patchGrant } from '@/app/api/grants/[id]/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { inDays } from '../support/missions';
import { connect, MCP_RESOURCE } from '../support/oauth';
import { signIn } from '../support/wallets';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000', MCP_RATE_LIMIT_PER_MINUTE: '100000' });

const URL_ = 'https://app.example.com/api/mcp';
const routeFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress('10.9.9.8'));
  return postMcp(request, { params: Promise.resolve({}) });
};

const clients: Client[] = [];
async function mcpClient(scope: string, user: Awaited<ReturnType<typeof signIn>>): Promise<Client> {
  const { tokens } = await connect(scope, user, MCP_RESOURCE);
  const transport = new StreamableHTTPClientTransport(new URL(URL_), {
    fetch: routeFetch,
    requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } },
  });
  const client = new Client({ name: 'milestones-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
});

type ToolResult = { isError?: boolean; content: { type: string; text?: string }[] };
const tool = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;
async function toolJson(client: Client, name: string, args: Record<string, unknown>) {
  const result = await tool(client, name, args);
  if (result.isError) throw new Error(`${name}: ${result.content[0]?.text}`);
  return JSON.parse(result.content[0]!.text!);
}

let owner: Client;
let agent: Client;
beforeAll(async () => {
  const ownerUser = await signIn();
  owner = await mcpClient('missions:read missions:post', ownerUser);
  // docs/api.md#confirmations: a release limit of one milestone's amount, less than the reward — an approval
  // releases that milestone alone, so it goes through at once.
  const grants = await call(listGrants, { token: ownerUser.token });
  const grantId = grants.body.items[0].id as string;
  const patched = await call(patchGrant, {
    method: 'PATCH',
    token: ownerUser.token,
    params: { id: grantId },
    body: { releaseLimit: '1000000' },
  });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  const agentUser = await signIn();
  await call(registerAgentRoute, { method: 'POST', token: agentUser.token });
  agent = await mcpClient('missions:read missions:work', agentUser);
});

describe('milestones through the MCP tools', () => {
  test("default: the tools' input schemas name milestones and milestone", async () => {
    const { tools } = await owner.listTools();
    const schema = (name: string) =>
      tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, unknown>;
    expect(schema('post_mission')).toHaveProperty('milestones');
    expect(schema('approve_mission')).toHaveProperty('milestone');
    expect(schema('contest_mission')).toHaveProperty('milestone');
    const { tools: agentTools } = await agent.listTools();
    expect(agentTools.find((t) => t.name === 'submit_work')!.inputSchema.properties).toHaveProperty('milestone');
  });

  test('default: post with milestones, deliver and approve them in order, contest one', async () => {
    const posted = await toolJson(owner, 'post_mission', {
      title: 'Build the site',
      description: 'Design, then code.',
      reward: '3000000',
      deadline: inDays(3),
      milestones: [
        { title: 'Design', amount: '1000000' },
        { title: 'Code', amount: '2000000', criteria: 'Deployed' },
      ],
    });
    expect(posted.milestones.map((m: { title: string; status: string }) => [m.title, m.status])).toEqual([
      ['Design', 'PENDING'],
      ['Code', 'PENDING'],
    ]);
    await toolJson(agent, 'accept_mission', { id: posted.id });
    // Not the one at hand: the API's 409 reaches the model as a tool error.
    const early = await tool(agent, 'submit_work', { id: posted.id, milestone: 2, note: 'Code first' });
    expect(early.isError).toBe(true);
    expect(early.content[0]!.text).toContain('Milestone 1 is the one at hand');
    expect(await toolJson(agent, 'submit_work', { id: posted.id, milestone: 1, note: 'Mockups' })).toMatchObject({
      status: 'SUBMITTED',
    });
    const approved = await toolJson(owner, 'approve_mission', { id: posted.id, milestone: 1 });
    expect(approved).toMatchObject({ status: 'ACCEPTED', released: '1000000' });
    await toolJson(agent, 'submit_work', { id: posted.id, milestone: 2, note: 'Deployed' });
    const contested = await toolJson(owner, 'contest_mission', { id: posted.id, milestone: 2, reason: 'Not live.' });
    expect(contested).toMatchObject({ status: 'CONTESTED' });
    const seen = await toolJson(agent, 'get_mission', { id: posted.id });
    expect(seen.milestones.map((m: { status: string; contests: number }) => [m.status, m.contests])).toEqual([
      ['APPROVED', 0],
      ['CONTESTED', 1],
    ]);
  });
});
