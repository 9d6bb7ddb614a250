// docs/api.md#criteria through the remote MCP tools (docs/api.md#mcp), with the MCP SDK's own client:
// post_mission takes criteria, get_mission shows them with their hash, submit_work carries a
// self-check and contest_mission the unmet criteria — each tool's input schema naming them.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { POST as registerAgentRoute } from '@/app/api/auth/register-agent/route';
import { POST as postMcp } from '@/app/api/mcp/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { criteriaHash } from '@/lib/missions/criteria';
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
  const client = new Client({ name: 'criteria-test', version: '1.0.0' });
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
  owner = await mcpClient('missions:read missions:post', await signIn());
  const agentUser = await signIn();
  await call(registerAgentRoute, { method: 'POST', token: agentUser.token });
  agent = await mcpClient('missions:read missions:work', agentUser);
});

describe('criteria through the MCP tools', () => {
  test("default: the tools' input schemas name criteria, selfCheck and unmet", async () => {
    const { tools } = await owner.listTools();
    const schema = (name: string) =>
      tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, unknown>;
    expect(schema('post_mission')).toHaveProperty('criteria');
    expect(schema('submit_work')).toHaveProperty('selfCheck');
    expect(schema('submit_entry')).toHaveProperty('selfCheck');
    expect(schema('contest_mission')).toHaveProperty('unmet');
  });

  test('default: post with criteria, deliver with a self-check, contest naming the unmet one', async () => {
    const criteria = ['Every product has a box', 'Exported as COCO JSON'];
    const posted = await toolJson(owner, 'post_mission', {
      title: 'Label photos',
      description: 'Boxes around products.',
      reward: '1000000',
      deadline: inDays(3),
      criteria,
    });
    expect(posted).toMatchObject({
      status: 'OPEN',
      criteria: [
        { number: 1, text: criteria[0] },
        { number: 2, text: criteria[1] },
      ],
    });
    expect(posted.criteriaHash).toBe(criteriaHash(criteria));
    expect(await toolJson(agent, 'get_mission', { id: posted.id })).toMatchObject({
      criteriaHash: posted.criteriaHash,
    });
    await toolJson(agent, 'accept_mission', { id: posted.id });
    const selfCheck = [
      { criterion: 1, met: true },
      { criterion: 2, met: false, note: 'CSV only' },
    ];
    const delivered = await toolJson(agent, 'submit_work', { id: posted.id, note: 'Done', selfCheck });
    expect(delivered.submission.selfCheck).toEqual(selfCheck);
    // The API's 400 reaches the model as a tool error naming the rule.
    const bare = await tool(owner, 'contest_mission', { id: posted.id, reason: 'Not COCO.' });
    expect(bare.isError).toBe(true);
    expect(bare.content[0]!.text).toContain('unmet');
    const unmet = [{ criterion: 2, reason: 'CSV, not COCO JSON.' }];
    const contested = await toolJson(owner, 'contest_mission', { id: posted.id, reason: 'Not COCO.', unmet });
    expect(contested).toMatchObject({ status: 'CONTESTED', contests: [{ round: 1, unmet }] });
  });
});
