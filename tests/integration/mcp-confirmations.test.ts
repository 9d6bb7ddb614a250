// A release waiting for the person, through remote MCP (docs/api.md#confirmations): the MCP SDK's own
// Client over Streamable HTTP. One that declared URL-mode elicitation (MCP 2025-11-25) gets the
// URLElicitationRequiredError (-32042) naming the confirmation's URL; any other gets it in the tool's
// text. Either way nothing is released, and the plain tools/call path answers the SDK's bytes.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, test } from 'vitest';
import { POST as postMcp } from '@/app/api/mcp/route';
import { POST as approveRoute } from '@/app/api/missions/[id]/approve/route';
import { TOOLS } from '@taskmarket/sdk/mcp';
import { createRemoteSession } from '@/lib/mcp/remote-session';
import { POST as createToken } from '@/app/api/tokens/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { act, createMission, missionRow, newAgent, newClient, ok, type Party } from '../support/missions';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000', MCP_RATE_LIMIT_PER_MINUTE: '100000' });

const URL_ = 'https://app.example.com/api/mcp';
const routeFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress('10.9.9.9'));
  return postMcp(request, { params: Promise.resolve({}) });
};

const clients: Client[] = [];
async function mcpClient(token: string, capabilities: Record<string, unknown>): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(URL_), {
    fetch: routeFetch,
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'confirmations-test', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  clients.push(client);
  return client;
}
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
});

async function delivered(client: Party) {
  const { id } = await createMission(client);
  const agent = await newAgent();
  await ok(act('accept', agent, id));
  await ok(act('submit', agent, id, { note: 'Done.' }));
  return id;
}

async function postingToken(owner: Party) {
  const answer = await call(createToken, {
    method: 'POST',
    token: owner.token,
    body: { name: 'chat', scopes: ['missions:read', 'missions:post'] },
  });
  expect(answer.status).toBe(201);
  return answer.body.token as string;
}

describe('approve_mission beyond the release limit', () => {
  test(
    'default: a client that declared URL-mode elicitation gets URLElicitationRequiredError ' + 'with the URL',
    async () => {
      const owner = await newClient();
      const id = await delivered(owner);
      const mcp = await mcpClient(await postingToken(owner), { elicitation: { url: {} } });
      const error = await mcp.callTool({ name: 'approve_mission', arguments: { id } }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(UrlElicitationRequiredError);
      const elicitation = (error as UrlElicitationRequiredError).elicitations[0]!;
      expect((error as UrlElicitationRequiredError).code).toBe(ErrorCode.UrlElicitationRequired);
      expect(elicitation).toMatchObject({
        mode: 'url',
        url: `https://app.example.com/confirmations/${elicitation.elicitationId}`,
      });
      expect(elicitation.message).toContain(elicitation.url);
      expect((await missionRow(id)).status).toBe('SUBMITTED');
    },
  );

  test("behavior: a client without it gets the confirmation in the tool's text, and nothing is released", async () => {
    const owner = await newClient();
    const id = await delivered(owner);
    const mcp = await mcpClient(await postingToken(owner), { elicitation: { form: {} } });
    const result = await mcp.callTool({ name: 'approve_mission', arguments: { id } });
    expect(result.isError).toBeFalsy();
    const [api, note] = result.content as { type: string; text: string }[];
    const { confirmation } = JSON.parse(api!.text);
    expect(confirmation.url).toBe(`https://app.example.com/confirmations/${confirmation.id}`);
    expect(note!.text).toContain(confirmation.url);
    expect(note!.text).toMatch(/Nothing was released/);
    expect((await missionRow(id)).status).toBe('SUBMITTED');
  });

  test("behavior: the plain tools/call path answers the elicitation in the SDK path's bytes", async () => {
    const owner = await newClient();
    const id = await delivered(owner);
    const token = await postingToken(owner);
    await mcpClient(token, { elicitation: { url: {} } });
    const send = async (params: Record<string, unknown>) => {
      const headers = {
        authorization: `Bearer ${token}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2025-11-25',
        [SOCKET_ADDRESS_HEADER]: stampedAddress('10.9.9.9'),
      };
      const response = await postMcp(
        new Request(URL_, {
          method: 'POST',
          headers,
          body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }),
        }),
        { params: Promise.resolve({}) },
      );
      return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
    };
    const plain = await send({ name: 'approve_mission', arguments: { id } });
    // The same request again waits on the same confirmation, so the two answers can be compared whole.
    expect(await send({ name: 'approve_mission', arguments: { id }, _meta: {} })).toEqual(plain);
    expect(JSON.parse(plain.body).error).toMatchObject({ code: -32042, data: { elicitations: [{ mode: 'url' }] } });
    // An older protocol version has no URL elicitation: the text instead.
    const older = await postMcp(
      new Request(URL_, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'mcp-protocol-version': '2025-06-18',
          [SOCKET_ADDRESS_HEADER]: stampedAddress('10.9.9.9'),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 8,
          method: 'tools/call',
          params: { name: 'approve_mission', arguments: { id } },
        }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(JSON.parse(await older.text()).result.content[1].text).toMatch(/Nothing was released/);
  });

  test('behavior: the 202 says a release waits, not how the text is written (JSON re-indented)', async () => {
    const owner = await newClient();
    const id = await delivered(owner);
    // The SDK's requests answered by the approve route, through something that re-writes JSON as it
    // likes: the same answer and status, other bytes.
    const reindenting: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress('10.9.9.9'));
      const answer = await approveRoute(request, { params: Promise.resolve({ id }) });
      const text = JSON.stringify(JSON.parse(await answer.text()), null, 2);
      return new Response(text, { status: answer.status, headers: { 'content-type': 'application/json' } });
    };
    const session = createRemoteSession({
      baseUrl: 'https://app.example.com',
      token: await postingToken(owner),
      fetch: reindenting,
    });
    const approve = TOOLS.find((t) => t.name === 'approve_mission')!;
    const answer = (await approve.run({ id }, session)) as { content?: { text: string }[] };
    expect(answer.content?.[1]?.text).toMatch(/Nothing was released/);
    expect((await missionRow(id)).status).toBe('SUBMITTED');
  });
});
