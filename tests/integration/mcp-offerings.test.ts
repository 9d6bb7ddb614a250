// Hiring an agent from the chat (docs/api.md#offerings): the MCP SDK's own Client with personal tokens — an
// agent's publishes an offering, a client's finds it, reads it and orders it; the answer is the funding URL as a
// URL elicitation, exactly as post_mission's (the tool's text for a client without it); the person funds it with
// one signature, and the order is ACCEPTED by the agent.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, test } from 'vitest';
import { POST as postMcp } from '@/app/api/mcp/route';
import { POST as createToken } from '@/app/api/tokens/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { useTestEnvironment } from '../support/environment';
import { call } from '../support/http';
import { missionRow, newAgent } from '../support/missions';
import { signAndFund } from '../support/funding';
import { offeringInput, PRICE, payingClient } from '../support/offerings';

useTestEnvironment({ WRITE_RATE_LIMIT_PER_MINUTE: '100000', MCP_RATE_LIMIT_PER_MINUTE: '100000' });

const routeFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress('10.9.9.8'));
  return postMcp(request, { params: Promise.resolve({}) });
};

const clients: Client[] = [];
async function mcpClient(token: string, capabilities: Record<string, unknown> = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('https://app.example.com/api/mcp'), {
    fetch: routeFetch,
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'offerings-test', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  clients.push(client);
  return client;
}
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
});

async function personalToken(signInToken: string, scopes: string[]) {
  const created = await call(createToken, { method: 'POST', token: signInToken, body: { name: 'chat', scopes } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.token as string;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[]).map((c) => c.text);

describe('offerings from the chat', () => {
  test('publish, find, read, order with the funding elicitation, fund by one signature: ACCEPTED', async () => {
    const agent = await newAgent();
    const agentChat = await mcpClient(await personalToken(agent.token, ['missions:read', 'missions:work']));
    const tools = (await agentChat.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(
      expect.arrayContaining(['find_offerings', 'get_offering', 'order_offering', 'publish_offering']),
    );
    const published = await agentChat.callTool({ name: 'publish_offering', arguments: offeringInput() });
    expect(published.isError, textOf(published).join()).toBeFalsy();
    const offering = JSON.parse(textOf(published)[0]!).offering;
    expect(offering).toMatchObject({ active: true, price: PRICE.toString() });

    const client = await payingClient();
    const chat = await mcpClient(await personalToken(client.token, ['missions:read', 'missions:post']), {
      elicitation: { url: {} },
    });
    const found = await chat.callTool({ name: 'find_offerings', arguments: { agent: agent.address, sort: 'price' } });
    expect(JSON.parse(textOf(found)[0]!).items.map((o: { id: string }) => o.id)).toEqual([offering.id]);
    const read = await chat.callTool({ name: 'get_offering', arguments: { id: offering.id } });
    expect(JSON.parse(textOf(read)[0]!).offering.requirementsSchema).toMatchObject({ required: ['url'] });

    // Requirements against the schema: the tool's error names the failing pointer, and nothing is ordered.
    const refused = await chat.callTool({ name: 'order_offering', arguments: { id: offering.id, requirements: {} } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused).join(' ')).toContain('requirements/url: required');

    const elicited = await chat
      .callTool({ name: 'order_offering', arguments: { id: offering.id, requirements: { url: 'https://x.test/p' } } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(elicited).toBeInstanceOf(UrlElicitationRequiredError);
    const [elicitation] = (elicited as UrlElicitationRequiredError).elicitations;
    const id = /\/missions\/([0-9a-f-]{36})\/fund$/.exec(elicitation!.url)?.[1];
    expect(elicitation).toMatchObject({ mode: 'url', elicitationId: `funding-${id}` });
    expect(elicitation!.message).toContain(id);
    expect((await missionRow(id!)).status).toBe('AWAITING_FUNDING');

    // The person follows the URL: one signature of the funding page's typed data.
    expect((await signAndFund(client.wallet, client.token, id!)).status).toBe(202);
    const seen = JSON.parse(textOf(await chat.callTool({ name: 'get_mission', arguments: { id } }))[0]!);
    expect(seen).toMatchObject({ status: 'ACCEPTED', assignment: 'DIRECT', agent: { walletAddress: agent.address } });
    expect(seen.offering).toEqual({ id: offering.id, title: offering.title });
  });

  test('a client without URL elicitation gets the funding URL in the tool text', async () => {
    const agent = await newAgent();
    const agentChat = await mcpClient(await personalToken(agent.token, ['missions:work']));
    const offering = JSON.parse(
      textOf(
        await agentChat.callTool({
          name: 'publish_offering',
          arguments: offeringInput({ requirementsSchema: undefined }),
        }),
      )[0]!,
    ).offering;
    const client = await payingClient();
    const chat = await mcpClient(await personalToken(client.token, ['missions:post']));
    const answer = await chat.callTool({ name: 'order_offering', arguments: { id: offering.id } });
    expect(answer.isError).toBeFalsy();
    const [json, message] = textOf(answer);
    const mission = JSON.parse(json!);
    expect(mission).toMatchObject({ status: 'AWAITING_FUNDING', offering: { id: offering.id } });
    expect(message).toContain(mission.funding.url);
  });
});
