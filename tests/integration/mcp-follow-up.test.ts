// What an MCP client is told is true (docs/api.md#mcp-follow-up): a client that asked for a confirmation
// follows it with the token it holds — the get_confirmation tool, and GET /api/confirmations/{id} with
// the /api/mcp token that asked; the OpenAPI description of POST /api/mcp states its 400 and 403 as
// they are; the protected-resource metadata asks for little.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, describe, expect, test } from 'vitest';
import { GET as readConfirmation, POST as decideConfirmation } from '@/app/api/confirmations/[id]/route';
import { POST as postMcp } from '@/app/api/mcp/route';
import { GET as openApi } from '@/app/api/openapi.json/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { callTool, connectMcp } from '../support/mcp-client';
import { act, createMission, missionRow, newAgent, ok, type Party } from '../support/missions';
import { connect, MCP_RESOURCE } from '../support/oauth';
import { signIn } from '../support/wallets';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000', MCP_RATE_LIMIT_PER_MINUTE: '100000' });

const URL_ = 'https://app.example.com/api/mcp';
const routeFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress('10.9.9.11'));
  return postMcp(request, { params: Promise.resolve({}) });
};
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
});

/** A client's delivered mission, and its /api/mcp OAuth token that may approve it (release limit 0). */
async function deliveredWithMcpToken() {
  const person = await signIn();
  const owner: Party = { token: person.token, address: person.user.walletAddress, id: person.user.id };
  const { id } = await createMission(owner);
  const agent = await newAgent();
  await ok(act('accept', agent, id));
  await ok(act('submit', agent, id, { note: 'Done.' }));
  const { tokens } = await connect('missions:read missions:post', person, MCP_RESOURCE);
  const mcp = await connectMcp(URL_, { token: tokens.access_token }, routeFetch);
  clients.push(mcp);
  return { owner, id, token: tokens.access_token as string, mcp };
}

/** approve_mission beyond the release limit, for a client without URL elicitation: the confirmation. */
async function askedConfirmation(mcp: Client, id: string) {
  const result = await mcp.callTool({ name: 'approve_mission', arguments: { id } });
  const [api] = result.content as { text: string }[];
  return JSON.parse(api!.text).confirmation as { id: string; url: string };
}

describe('following a confirmation', () => {
  test('default: get_confirmation answers it, PENDING and then APPROVED once the person said yes', async () => {
    const { owner, id, mcp } = await deliveredWithMcpToken();
    const confirmation = await askedConfirmation(mcp, id);
    expect(await callTool(mcp, 'get_confirmation', { id: confirmation.id })).toMatchObject({
      id: confirmation.id,
      status: 'PENDING',
      action: 'approve',
      mission: { id },
    });
    await ok(
      call(decideConfirmation, { token: owner.token, params: { id: confirmation.id }, body: { decision: 'approve' } }),
    );
    expect(await callTool(mcp, 'get_confirmation', { id: confirmation.id })).toMatchObject({ status: 'APPROVED' });
    expect((await missionRow(id)).status).toBe('COMPLETED');
  });

  test('behavior: GET /api/confirmations/{id} takes the /api/mcp token that asked; another is 404', async () => {
    const { id, token, mcp } = await deliveredWithMcpToken();
    const confirmation = await askedConfirmation(mcp, id);
    const read = await call(readConfirmation, { token, params: { id: confirmation.id } });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body).toMatchObject({ id: confirmation.id, status: 'PENDING' });
    const other = await deliveredWithMcpToken();
    expect((await call(readConfirmation, { token: other.token, params: { id: confirmation.id } })).status).toBe(404);
  });
});

describe('POST /api/mcp in the OpenAPI document', () => {
  test('default: its 400 is the JSON-RPC error a batch answers, and its 403 states the Origin rule', async () => {
    const { body: document } = await call(openApi);
    const operation = document.paths['/api/mcp'].post;
    expect(operation.responses['403'].description).toMatch(
      /Origin outside the app's own origins and MCP_ALLOWED_ORIGINS/,
    );
    const schema = operation.responses['400'].content['application/json'].schema;
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ ...document, $id: 'doc' });
    const valid = ajv.compile({ $ref: `doc#${schema.$ref ? schema.$ref.slice(1) : ''}` });
    const { tokens } = await connect('missions:read', undefined, MCP_RESOURCE);
    const batch = await call(postMcp, {
      token: tokens.access_token,
      body: [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }],
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(batch.status).toBe(400);
    expect(batch.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(valid(batch.body), JSON.stringify(valid.errors)).toBe(true);
  });
});
