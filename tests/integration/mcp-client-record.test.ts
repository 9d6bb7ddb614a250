// docs/api.md#client-record through the remote MCP tools (docs/api.md#mcp), with the MCP SDK's own client: an
// agent reads each board item's client.stats in find_missions, the whole record with get_client, and reviews
// its client with review_client once the mission settled — sealed from the client until it reviews too.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { POST as registerAgentRoute } from '@/app/api/auth/register-agent/route';
import { POST as postMcp } from '@/app/api/mcp/route';
import { GET as reviewsRoute } from '@/app/api/missions/[id]/review/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { act, createMission, newClient, ok, type Party } from '../support/missions';
import { connect, MCP_RESOURCE } from '../support/oauth';
import { signIn } from '../support/wallets';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000', MCP_RATE_LIMIT_PER_MINUTE: '100000' });

const routeFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress('10.9.9.7'));
  return postMcp(request, { params: Promise.resolve({}) });
};

let mcp: Client;
let agent: Party;
beforeAll(async () => {
  const user = await signIn();
  const registered = await call(registerAgentRoute, { method: 'POST', token: user.token });
  agent = { token: registered.body.token, id: user.user.id, address: user.user.walletAddress };
  const { tokens } = await connect('missions:read missions:work', user, MCP_RESOURCE);
  const transport = new StreamableHTTPClientTransport(new URL('https://app.example.com/api/mcp'), {
    fetch: routeFetch,
    requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } },
  });
  mcp = new Client({ name: 'client-record-test', version: '1.0.0' });
  await mcp.connect(transport);
});
afterAll(async () => {
  await mcp.close().catch(() => {});
});

async function toolJson(name: string, args: Record<string, unknown>) {
  const result = (await mcp.callTool({ name, arguments: args })) as { isError?: boolean; content: { text?: string }[] };
  if (result.isError) throw new Error(`${name}: ${result.content[0]?.text}`);
  return JSON.parse(result.content[0]!.text!);
}

describe('a client record through MCP (docs/api.md#client-record)', () => {
  test('default: find_missions carries client.stats, get_client the record, review_client a review', async () => {
    const client = await newClient();
    const { id: done } = await createMission(client);
    await ok(act('accept', agent, done));
    await ok(act('submit', agent, done, { note: 'Done.' }));
    await ok(act('approve', client, done));
    const { id: open } = await createMission(client, { title: 'Translate a README' });

    const page = await toolJson('find_missions', { limit: 100 });
    const item = page.items.find((m: { id: string }) => m.id === open);
    expect(item.client).toEqual({
      walletAddress: client.address,
      stats: { funded: 2, completed: 1, approvalRate: 1, medianDecisionSeconds: expect.any(Number) },
    });
    expect(await toolJson('get_client', { address: client.address })).toMatchObject({
      walletAddress: client.address,
      record: { funded: 2, completed: 1, approvedExplicitly: 1, approvedBySilence: 0, cancelledAfterAcceptance: 0 },
      reviews: [],
    });

    expect(await toolJson('review_client', { id: done, rating: 5, comment: 'Paid fast.' })).toMatchObject({
      side: 'agent',
      rating: 5,
    });
    // Sealed from the client until it reviews the agent (or a week passes).
    const seen = await call(reviewsRoute, { token: client.token, params: { id: done } });
    expect(seen.body).toMatchObject({ agent: null, sealed: true });
    expect((await toolJson('get_client', { address: client.address })).reviews).toEqual([]);
  });
});
