// A bounty through every first-party tool (docs/api.md#bounties): the client posts one with the SDK
// (fundAndCreateMission funds the longer bounty expiry), three agents enter it — with the SDK,
// with `taskmarket enter` and with the MCP tool submit_entry — each seeing its own entry only;
// after the deadline the client awards it with `taskmarket award`, and the award reaches the
// entrants through the MCP tools too.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mintTestUsdc, SERVER_START_TIMEOUT, startSdkTestServer, type SdkTestServer } from '../support/sdk/server';
import { buildSdk } from '../support/sdk/sdk-build';
import { sdkClient } from '../support/sdk/sdk-fixtures';
import { CLI, cliEnv, cliJson, newWallet, SUITE_SERVER_ENV, type Wallet } from '../support/sdk/cli-process';

let server: SdkTestServer;
let files: string;
const connections: Client[] = [];

beforeAll(async () => {
  await buildSdk();
  server = await startSdkTestServer(SUITE_SERVER_ENV);
  files = mkdtempSync(join(tmpdir(), 'taskmarket-bounty-'));
}, SERVER_START_TIMEOUT);

afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await server?.stop();
  if (files) rmSync(files, { recursive: true, force: true });
});

async function mcp(wallet: Wallet): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    env: { ...cliEnv(server, wallet), TASKMARKET_FILE_ROOT: files },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'taskmarket-bounty-test', version: '1.0.0' });
  await client.connect(transport);
  connections.push(client);
  return client;
}

async function tool<T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
  return JSON.parse(result.content[0]!.text) as T;
}

describe('a bounty through the SDK, the CLI and MCP', () => {
  test('post with the SDK; enter with the SDK, `taskmarket enter` and submit_entry; award with ' +
    '`taskmarket award`', async () => {
    const clientWallet = await newWallet(server);
    await mintTestUsdc(server, clientWallet.address, 100n * 10n ** 6n);
    const [sdkAgent, cliAgent, mcpAgent] = [await newWallet(server), await newWallet(server), await newWallet(server)];
    for (const agent of [sdkAgent, cliAgent, mcpAgent]) await cliJson(server, agent, ['register']);

    const client = sdkClient(server, privateKeyToAccount(clientWallet.key));
    // Far enough out for three agents to enter over stdio and child processes on a busy machine.
    const deadline = new Date(Date.now() + 40_000);
    const bounty = await client.fundAndCreateMission({
      title: 'Name our product',
      description: 'Three names, with a line on each.',
      reward: '9000000',
      deadline: deadline.toISOString(),
      assignment: 'BOUNTY',
      winners: 2,
      split: [70, 30],
    });
    expect(bounty).toMatchObject({
      status: 'OPEN',
      assignment: 'BOUNTY',
      bounty: { winners: 2, split: [70, 30], entries: 0 },
    });

    const viaSdk = await sdkClient(server, privateKeyToAccount(sdkAgent.key)).missions.enter(bounty.id, {
      note: 'Escrowly, Bountiful, Pactum',
    });
    expect(viaSdk).toMatchObject({ version: 1, agent: { walletAddress: sdkAgent.address.toLowerCase() } });

    writeFileSync(join(files, 'names.md'), '# Names\n\n- Taskly\n- Settle\n');
    const viaCli = await cliJson<{ version: number; files: { filename: string }[] }>(server, cliAgent, [
      'enter',
      bounty.id,
      '--note',
      'See the file',
      '--file',
      join(files, 'names.md'),
    ]);
    expect(viaCli.files.map((f) => f.filename)).toEqual(['names.md']);

    const agentMcp = await mcp(mcpAgent);
    const viaMcp = await tool<{ version: number; files: unknown[] }>(agentMcp, 'submit_entry', {
      id: bounty.id,
      note: 'Three names',
      textFiles: [{ name: 'names.txt', content: 'Ledgerly\nClaimly\nAwardly\n' }],
    });
    expect(viaMcp.files).toHaveLength(1);
    // Each entrant sees its own entry only.
    const own = await sdkClient(server, privateKeyToAccount(sdkAgent.key)).missions.entries(bounty.id);
    expect(own.items.map((e) => e.agent.walletAddress)).toEqual([sdkAgent.address.toLowerCase()]);
    expect((await client.missions.entries(bounty.id)).items).toHaveLength(3);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline.getTime() - Date.now() + 500)));
    const awarded = await cliJson<{
      status: string;
      bounty: { awards: { place: number; walletAddress: string; amount: string }[] };
    }>(server, clientWallet, ['award', bounty.id, '--winner', mcpAgent.address, '--winner', cliAgent.address]);
    expect(awarded.status).toBe('AWARDED');
    // 9 USDC with no platform fee: 70 % and 30 %.
    expect(awarded.bounty.awards).toEqual([
      { place: 1, walletAddress: mcpAgent.address.toLowerCase(), amount: '6300000' },
      { place: 2, walletAddress: cliAgent.address.toLowerCase(), amount: '2700000' },
    ]);
    const seen = await tool<{ status: string; bounty: { awards: unknown[] } }>(agentMcp, 'get_mission', {
      id: bounty.id,
    });
    expect(seen).toMatchObject({ status: 'AWARDED', bounty: { awards: awarded.bounty.awards } });
  }, 180_000);
});
