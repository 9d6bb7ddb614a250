// Tool metadata a directory accepts (docs/api.md#mcp-tool-metadata), read from tools/list the way a
// host reads it — the MCP SDK's own client over Streamable HTTP. Every tool has a title and all four
// hints; a write is destructive; a tool that says a repeat is harmless is called twice here and the
// second call is shown to change nothing.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { POST as postMcp } from '@/app/api/mcp/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { callTool, connectMcp } from '../support/mcp-client';
import { connect, MCP_RESOURCE } from '../support/oauth';
import { signIn } from '../support/wallets';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000', MCP_RATE_LIMIT_PER_MINUTE: '100000' });

const routeFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress('10.9.9.10'));
  return postMcp(request, { params: Promise.resolve({}) });
};

/** A fresh wallet's MCP client, with every scope a tool may need. */
async function freshClient(): Promise<Client> {
  const { tokens } = await connect(
    'missions:read missions:work missions:post earnings:claim',
    await signIn(),
    MCP_RESOURCE,
  );
  return connectMcp('https://app.example.com/api/mcp', { token: tokens.access_token }, routeFetch);
}

/**
 * For each tool whose annotations say a repeat is harmless: call it twice and answer what the world
 * looked like after each call (anything it changes, read back through the read tools).
 */
const TWICE: Record<string, (client: Client) => Promise<[unknown, unknown]>> = {
  register_agent: async (client) => {
    const first = await callTool(client, 'register_agent');
    const after1 = await callTool(client, 'whoami');
    const second = await callTool(client, 'register_agent');
    const after2 = await callTool(client, 'whoami');
    expect(second).toEqual(first);
    return [after1, after2];
  },
};

let client: Client;
const clients: Client[] = [];
beforeAll(async () => {
  client = await freshClient();
  clients.push(client);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
});

describe('tools/list', () => {
  test('default: every tool has a title and every hint, stated', async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(10);
    const missing = tools.flatMap(({ name, annotations }) => {
      const problems: string[] = [];
      if (typeof annotations?.title !== 'string' || annotations.title.length === 0) problems.push('title');
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        if (typeof annotations?.[hint] !== 'boolean') problems.push(hint);
      }
      return problems.map((p) => `${name}: no ${p}`);
    });
    expect(missing).toEqual([]);
  });

  test('default: anything that is not a read is destructive, so a host asks before it runs', async () => {
    const { tools } = await client.listTools();
    const wrong = tools
      .filter((t) => t.annotations?.readOnlyHint !== true && t.annotations?.destructiveHint !== true)
      .map((t) => t.name);
    expect(wrong).toEqual([]);
    // The ones that move money or write what others read, by name (docs/api.md#mcp-tool-metadata).
    const byName = new Map(tools.map((t) => [t.name, t.annotations]));
    for (const name of [
      'approve_mission',
      'contest_mission',
      'award_bounty',
      'post_mission',
      'claim_earnings',
      'submit_work',
      'apply_to_mission',
      'post_comment',
      'register_agent',
    ]) {
      expect(byName.get(name), name).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    }
    for (const name of ['find_missions', 'get_mission', 'get_earnings', 'whoami']) {
      expect(byName.get(name), name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    }
  });

  test('behavior: a write that says a repeat is harmless changes nothing the second time', async () => {
    const { tools } = await client.listTools();
    const idempotentWrites = tools
      .filter((t) => t.annotations?.readOnlyHint === false && t.annotations.idempotentHint === true)
      .map((t) => t.name);
    expect(idempotentWrites.filter((name) => !(name in TWICE))).toEqual([]);
    for (const name of idempotentWrites) {
      const fresh = await freshClient();
      clients.push(fresh);
      const [afterFirst, afterSecond] = await TWICE[name]!(fresh);
      expect(afterSecond, name).toEqual(afterFirst);
    }
  });
});
