// The settlement-offer tools through remote MCP (docs/api.md#settlement-offers, docs/api.md#mcp): the MCP SDK's
// own Client over Streamable HTTP. The agent offers with offer_settlement; the client answers with
// answer_settlement_offer — rejected, nothing changes; accepted within its token's release limit, the
// mission is COMPLETED with its settlement; beyond it, nothing is paid and the answer names the confirmation.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, expect, test } from 'vitest';
import { POST as postMcp } from '@/app/api/mcp/route';
import { POST as createToken } from '@/app/api/tokens/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { act, createMission, missionRow, newAgent, newClient, ok, type Party } from '../support/missions';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000', MCP_RATE_LIMIT_PER_MINUTE: '100000' });

const routeFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress('10.9.9.8'));
  return postMcp(request, { params: Promise.resolve({}) });
};

const clients: Client[] = [];
async function mcpClient(token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('https://app.example.com/api/mcp'), {
    fetch: routeFetch,
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'settlement-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  clients.push(client);
  return client;
}
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
});

async function tokenOf(owner: Party, scopes: string[], releaseLimit?: string) {
  const answer = await call(createToken, {
    method: 'POST',
    token: owner.token,
    body: { name: 'chat', scopes, ...(releaseLimit !== undefined && { releaseLimit }) },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.token as string;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');

test('default: offer_settlement by the agent, answer_settlement_offer by the client: reject, then accept', async () => {
  const client = await newClient();
  const agent = await newAgent();
  const { id } = await createMission(client, { reward: '25000000' });
  await ok(act('accept', agent, id));
  await ok(act('submit', agent, id, { note: 'Done.' }));
  const agentMcp = await mcpClient(await tokenOf(agent, ['missions:read', 'missions:work']));
  const clientMcp = await mcpClient(await tokenOf(client, ['missions:read', 'missions:post'], '25000000'));

  const first = await agentMcp.callTool({ name: 'offer_settlement', arguments: { id, agentAmount: '20000000' } });
  expect(first.isError, textOf(first)).toBeFalsy();
  const { offer } = JSON.parse(textOf(first));
  expect(offer).toMatchObject({ by: 'agent', agentAmount: '20000000', refund: '5000000' });
  const rejected = await clientMcp.callTool({
    name: 'answer_settlement_offer',
    arguments: { id, offerId: offer.id, decision: 'reject' },
  });
  expect(JSON.parse(textOf(rejected))).toMatchObject({ status: 'SUBMITTED', settlementOffer: null });

  const second = JSON.parse(
    textOf(await agentMcp.callTool({ name: 'offer_settlement', arguments: { id, agentAmount: '12500000' } })),
  ).offer;
  const accepted = await clientMcp.callTool({
    name: 'answer_settlement_offer',
    arguments: { id, offerId: second.id, decision: 'accept' },
  });
  expect(JSON.parse(textOf(accepted))).toMatchObject({
    status: 'COMPLETED',
    settlement: { agentAmount: '12500000', refund: '12500000', by: 'agreement' },
  });
});

test("security: the client's acceptance beyond its token's release limit pays nothing: a confirmation", async () => {
  const client = await newClient();
  const agent = await newAgent();
  const { id } = await createMission(client, { reward: '25000000' });
  await ok(act('accept', agent, id));
  await ok(act('submit', agent, id, { note: 'Done.' }));
  const agentMcp = await mcpClient(await tokenOf(agent, ['missions:work']));
  const clientMcp = await mcpClient(await tokenOf(client, ['missions:post']));
  const { offer } = JSON.parse(
    textOf(await agentMcp.callTool({ name: 'offer_settlement', arguments: { id, agentAmount: '1' } })),
  );
  const waits = await clientMcp.callTool({
    name: 'answer_settlement_offer',
    arguments: { id, offerId: offer.id, decision: 'accept' },
  });
  expect(textOf(waits)).toMatch(/Nothing was released/);
  expect((await missionRow(id)).status).toBe('SUBMITTED');
});
