// MCP 2026-07-28 beside the 2025 revisions on /api/mcp (docs/api.md#mcp-protocol-eras): the v2 SDK's own
// Client pinned to 2026-07-28 (server/discover, no initialize, the per-request envelope) and the 1.x
// client on one endpoint; the standard headers checked against the body; a release waiting for the
// person answered input_required with a URL-mode elicitation and a sealed requestState, and the
// client's retry answered from it once the person decided — no memory of the client on the server.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, test } from 'vitest';
import { POST as decideConfirmation } from '@/app/api/confirmations/[id]/route';
import { POST as postMcp } from '@/app/api/mcp/route';
import { POST as createToken } from '@/app/api/tokens/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { getKv } from '@/lib/kv';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { expectUiPagesServed } from '../support/mcp-apps';
import { connectMcp } from '../support/mcp-client';
import { act, createMission, missionRow, newAgent, newClient, ok, type Party } from '../support/missions';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000', MCP_RATE_LIMIT_PER_MINUTE: '100000' });

const URL_ = 'https://app.example.com/api/mcp';
const MODERN = '2026-07-28';
const requests: { headers: Headers; body: any; status: number; answer: any }[] = [];
const routeFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress('10.9.9.12'));
  const body = request.method === 'POST' ? await request.clone().json() : undefined;
  const response = await postMcp(request, { params: Promise.resolve({}) });
  const answer = await response
    .clone()
    .json()
    .catch(() => undefined);
  requests.push({ headers: request.headers, body, status: response.status, answer });
  return response;
};

const clients: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
});

type Elicit = (params: { mode?: string; url?: string; message: string }) => Promise<{ action: 'accept' | 'decline' }>;

/** A v2 client pinned to 2026-07-28, with URL-mode elicitation answered by `onUrl` when given. */
async function modernClient(token: string, onUrl?: Elicit): Promise<Client> {
  const client = new Client(
    { name: 'modern-test', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: MODERN } },
      capabilities: onUrl ? { elicitation: { url: {} } } : {},
    },
  );
  if (onUrl) client.setRequestHandler('elicitation/create', (request) => onUrl(request.params as never) as never);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(URL_), {
      fetch: routeFetch,
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

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
  return answer.body as { token: string; grant: { id: string } };
}

const texts = (result: unknown) => (result as { content: { type: string; text: string }[] }).content.map((c) => c.text);

describe('both eras on /api/mcp', () => {
  test('default: a client pinned to 2026-07-28 connects by server/discover, no initialize, same tools', async () => {
    const owner = await newClient();
    const { token } = await postingToken(owner);
    requests.length = 0;
    const modern = await modernClient(token);
    expect(modern.getProtocolEra()).toBe('modern');
    const legacy = await connectMcp(URL_, { token }, routeFetch);
    clients.push(legacy);
    const [mine, theirs] = await Promise.all([modern.listTools(), legacy.listTools()]);
    expect(mine.tools).toEqual(theirs.tools);
    const methods = requests.map((r) => r.body?.method);
    expect(methods[0]).toBe('server/discover');
    expect(methods.slice(0, methods.indexOf('initialize'))).not.toContain('initialize');
    // Every 2026 request carries its envelope and the standard headers; every 2026 result its resultType.
    const modernRequests = requests.filter((r) => r.body?._meta ?? r.body?.params?._meta);
    expect(modernRequests.length).toBeGreaterThan(1);
    for (const r of modernRequests) {
      expect(r.headers.get('mcp-method')).toBe(r.body.method);
      expect(r.answer.result.resultType).toBe('complete');
    }
  });

  test(
    'default: on 2026-07-28 resources/list answers exactly the ui:// pages the tools name, and resources/read ' +
      'each as an MCP App with its CSP',
    async () => {
      const owner = await newClient();
      const { token } = await postingToken(owner);
      requests.length = 0;
      // docs/api.md#mcp-apps: "on both protocol eras" — the 2026 handler registers its own resource handlers.
      await expectUiPagesServed(await modernClient(token));
      // Answered on 2026-07-28 itself: the standard header sent, resultType on every page read.
      const read = requests.filter((r) => r.body?.method === 'resources/read' && r.answer?.result);
      expect(read).toHaveLength(2);
      for (const r of read) {
        expect(r.headers.get('mcp-method')).toBe('resources/read');
        expect(r.answer.result.resultType).toBe('complete');
      }
    },
  );

  /** A request the client sent, sent again under JSON-RPC id `id`, with `header` set to another value if given. */
  const replay = (sent: (typeof requests)[number], id: number, header?: [string, string]) => {
    const headers = new Headers(sent.headers);
    if (header) headers.set(...header);
    return routeFetch(URL_, { method: 'POST', headers, body: JSON.stringify({ ...sent.body, id }) });
  };

  test('error: an Mcp-Method header that disagrees with the body is 400 with the JSON-RPC error -32020', async () => {
    const owner = await newClient();
    const { token } = await postingToken(owner);
    requests.length = 0;
    await modernClient(token);
    const discover = requests.find((r) => r.body?.method === 'server/discover')!;
    const answer = await replay(discover, 99, ['mcp-method', 'tools/list']);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ jsonrpc: '2.0', id: 99, error: { code: -32020 } });
  });

  test('error: an Mcp-Name header that disagrees with the tool called is 400 with -32020', async () => {
    const owner = await newClient();
    const { token } = await postingToken(owner);
    requests.length = 0;
    const mcp = await modernClient(token);
    await mcp.callTool({ name: 'whoami', arguments: {} });
    const called = requests.find((r) => r.body?.method === 'tools/call')!;
    expect(new Headers(called.headers).get('mcp-name')).toBe('whoami');
    // The same request with its own header is answered: the 400 below is the header's alone.
    expect((await replay(called, 97)).status).toBe(200);
    const answer = await replay(called, 98, ['mcp-name', 'get_earnings']);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ jsonrpc: '2.0', id: 98, error: { code: -32020 } });
  });
});

describe('a release waiting for the person, on 2026-07-28', () => {
  test(
    'default: approve_mission is input_required with the confirmation URL; once the person approves, ' +
      'the retry answers the payment made',
    async () => {
      const owner = await newClient();
      const id = await delivered(owner);
      const { token, grant } = await postingToken(owner);
      const asked: string[] = [];
      const mcp = await modernClient(token, async ({ mode, url }) => {
        expect(mode).toBe('url');
        asked.push(url!);
        // The person opens the URL and approves (wallet sign-in), then the client says it is done.
        const confirmationId = new URL(url!).pathname.split('/').pop()!;
        await ok(
          call(decideConfirmation, {
            token: owner.token,
            params: { id: confirmationId },
            body: { decision: 'approve' },
          }),
        );
        return { action: 'accept' };
      });
      const before = await getKv().get(`mcp:url-elicitation:${grant.id}`);
      const result = await mcp.callTool({ name: 'approve_mission', arguments: { id } });
      expect(asked).toEqual([expect.stringMatching(/^https:\/\/app\.example\.com\/confirmations\//)]);
      expect(result.isError).toBeFalsy();
      const [confirmation, note] = texts(result);
      expect(JSON.parse(confirmation!)).toMatchObject({ status: 'APPROVED', mission: { id } });
      expect(note).toMatch(/approved/);
      expect((await missionRow(id)).status).toBe('COMPLETED');
      // Nothing was remembered of this client: its capabilities came with each request.
      expect(await getKv().get(`mcp:url-elicitation:${grant.id}`)).toBe(before);
      // The first answer was input_required, its state sealed (nothing of it readable).
      const first = requests.find((r) => r.answer?.result?.resultType === 'input_required')!;
      expect(first.answer.result.inputRequests.confirmation).toMatchObject({
        method: 'elicitation/create',
        params: { mode: 'url', url: asked[0] },
      });
      const state = first.answer.result.requestState as string;
      expect(state.split('.')).toHaveLength(5);
      expect(state).not.toContain(id);
    },
  );

  test('behavior: a client that declared no URL elicitation gets the confirmation in text, as on 2025', async () => {
    const owner = await newClient();
    const id = await delivered(owner);
    const { token } = await postingToken(owner);
    const mcp = await modernClient(token);
    const result = await mcp.callTool({ name: 'approve_mission', arguments: { id } });
    const [api, note] = texts(result);
    expect(JSON.parse(api!).confirmation.url).toMatch(/\/confirmations\//);
    expect(note).toMatch(/Nothing was released/);
    expect((await missionRow(id)).status).toBe('SUBMITTED');
  });

  test('error: a requestState changed by the client is refused (-32602), and nothing is released', async () => {
    const owner = await newClient();
    const id = await delivered(owner);
    const { token } = await postingToken(owner);
    const manual = new Client(
      { name: 'modern-manual', version: '1.0.0' },
      {
        versionNegotiation: { mode: { pin: MODERN } },
        capabilities: { elicitation: { url: {} } },
        inputRequired: { autoFulfill: false },
      },
    );
    await manual.connect(
      new StreamableHTTPClientTransport(new URL(URL_), {
        fetch: routeFetch,
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(manual);
    const first = (await manual.request(
      { method: 'tools/call', params: { name: 'approve_mission', arguments: { id } } },
      { allowInputRequired: true },
    )) as unknown as { requestState: string };
    const tampered = `${first.requestState.slice(0, -4)}AAAA`;
    const retry = manual.request(
      {
        method: 'tools/call',
        params: {
          name: 'approve_mission',
          arguments: { id },
          inputResponses: { confirmation: { action: 'accept' } },
          requestState: tampered,
        } as never,
      },
      { allowInputRequired: true },
    );
    await expect(retry).rejects.toMatchObject({ code: -32602 });
    // Another call's state is no key either: the same state for another mission is refused as not its own.
    const other = await delivered(owner);
    const elsewhere = (await manual.request(
      {
        method: 'tools/call',
        params: {
          name: 'approve_mission',
          arguments: { id: other },
          inputResponses: { confirmation: { action: 'accept' } },
          requestState: first.requestState,
        } as never,
      },
      { allowInputRequired: true },
    )) as { isError?: boolean };
    expect(elsewhere.isError).toBe(true);
    expect((await missionRow(id)).status).toBe('SUBMITTED');
    expect((await missionRow(other)).status).toBe('SUBMITTED');
  });
});
