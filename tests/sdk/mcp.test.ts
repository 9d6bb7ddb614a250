// `taskmarket mcp` (docs/api.md#mcp): the MCP SDK's own Client over stdio spawns the built bin, lists the
// tools (input schemas from the API's OpenAPI document), and an agent finds → accepts → submits →
// (the client approves, through its own MCP connection) → claims, all through tool calls. Tool
// errors carry the API's message.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectUiPagesServed } from '../support/mcp-apps';
import { mintTestUsdc, SERVER_START_TIMEOUT, startSdkTestServer, type SdkTestServer } from '../support/sdk/server';
import { buildSdk } from '../support/sdk/sdk-build';
import {
  claimableOf,
  CLI,
  cliEnv,
  eventually,
  newWallet,
  runCli,
  SUITE_SERVER_ENV,
  usdcBalanceOf,
  type Wallet,
} from '../support/sdk/cli-process';

const REWARD = 30_000_000n; // 30 USDC
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

let server: SdkTestServer;
let clientWallet: Wallet;
let agentWallet: Wallet;
let files: string;
const connections: Client[] = [];

/**
 * An MCP client connected to `taskmarket mcp` running with `wallet`'s key (and the chain's RPC URL unless `chain:
 * false`).
 */
async function connect(wallet: Wallet, { chain = true, fileRoot = files as string | undefined } = {}): Promise<Client> {
  const { TASKMARKET_RPC_URL: _rpc, ...offChain } = cliEnv(server, wallet);
  const env = { ...(chain ? cliEnv(server, wallet) : offChain), ...(fileRoot && { TASKMARKET_FILE_ROOT: fileRoot }) };
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], env, stderr: 'pipe' });
  const client = new Client({ name: 'taskmarket-mcp-test', version: '1.0.0' });
  await client.connect(transport);
  connections.push(client);
  return client;
}

interface ToolText {
  isError?: boolean;
  content: { type: string; text: string }[];
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolText> {
  return (await client.callTool({ name, arguments: args })) as ToolText;
}

/** A tool's answer parsed, failing the test with the tool's error text when it failed. */
async function callJson<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
  return JSON.parse(result.content[0]!.text) as T;
}

beforeAll(async () => {
  await buildSdk();
  server = await startSdkTestServer(SUITE_SERVER_ENV);
  clientWallet = await newWallet(server);
  agentWallet = await newWallet(server);
  await mintTestUsdc(server, clientWallet.address, 1_000n * 10n ** 6n);
  files = mkdtempSync(join(tmpdir(), 'taskmarket-mcp-'));
}, SERVER_START_TIMEOUT);

afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await server?.stop();
  if (files) rmSync(files, { recursive: true, force: true });
});

describe('taskmarket mcp', () => {
  test('lists its tools with input schemas from the API schemas', async () => {
    const agent = await connect(agentWallet);
    const { tools } = await agent.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual(
      [
        'accept_mission',
        'apply_to_mission',
        'approve_mission',
        'claim_earnings',
        'contest_mission',
        'find_missions',
        'get_comments',
        'get_earnings',
        'get_mission',
        'get_mission_file',
        'post_comment',
        'post_mission',
        'register_agent',
        'review_agent',
        'review_client',
        'get_client',
        'submit_work',
        'whoami',
        'submit_entry',
        'award_bounty',
        'offer_settlement',
        'answer_settlement_offer',
        'get_confirmation',
        'wait_for_mission',
        'find_offerings',
        'get_offering',
        'order_offering',
        'publish_offering',
      ].sort(),
    );
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.description?.length).toBeGreaterThan(20);
    }
    // The server's own rules, carried over: the sort choices, the title and note limits, the rating range.
    const find = byName.get('find_missions')!.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(find.sort?.enum).toEqual(['bumped', 'reward', 'deadline', 'created']);
    expect(find.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    const post = byName.get('post_mission')!.inputSchema;
    expect(post.required).toEqual(['title', 'description', 'reward', 'deadline']);
    expect((post.properties as Record<string, Record<string, unknown>>).title).toMatchObject({
      minLength: 1,
      maxLength: 200,
    });
    expect((post.properties as Record<string, Record<string, unknown>>).onChainTaskId?.description).toMatch(/reuse/);
    const submit = byName.get('submit_work')!.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(submit.note).toMatchObject({ type: 'string', maxLength: 10_000 });
    expect(submit.id).toMatchObject({ type: 'string', format: 'uuid' });
    const review = byName.get('review_agent')!.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(review.rating).toMatchObject({ type: 'integer', minimum: 1, maximum: 5 });
    expect(byName.get('find_missions')!.annotations?.readOnlyHint).toBe(true);
    expect(await callJson(agent, 'whoami')).toMatchObject({
      user: { walletAddress: agentWallet.address.toLowerCase() },
    });
  });

  test(
    'resources/list answers exactly the ui:// pages the tools name, and resources/read each as an MCP App ' +
      'with its CSP, over stdio',
    async () => {
      // docs/api.md#mcp-apps: a desktop host that renders MCP Apps starts this server, not the remote one, and
      // reads the pages from it — the one set of pages (sdk/src/mcp/apps.ts), served by the stdio server's own
      // handlers (createMcpServer).
      await expectUiPagesServed(await connect(agentWallet, { chain: false }));
    },
  );

  test('find → accept → submit → (the client approves) → claim, through tool calls', async () => {
    const client = await connect(clientWallet);
    const agent = await connect(agentWallet);

    const deadline = new Date(Date.now() + 7 * 86_400_000).toISOString();
    writeFileSync(join(files, 'brief.md'), '# Brief\n\nThree lines, 5-7-5.\n');
    writeFileSync(join(files, 'mood.png'), Buffer.from(PNG_1X1, 'base64'));
    writeFileSync(join(files, 'terms.pdf'), '%PDF-1.4\n%%EOF\n');
    const posted = await callJson<{ id: string; status: string; onChainTaskId: number }>(client, 'post_mission', {
      title: 'MCP lifecycle mission',
      description: 'Write a haiku about escrow',
      reward: REWARD.toString(),
      deadline,
      tags: ['mcp'],
      files: ['brief.md', 'mood.png', 'terms.pdf'],
    });
    expect(posted.status).toBe('OPEN');
    expect(posted.onChainTaskId).toEqual(expect.any(Number));

    expect(await callJson(agent, 'register_agent')).toMatchObject({ user: { role: 'AGENT' } });
    const found = await callJson<{ items: { id: string }[]; nextCursor: string | null }>(agent, 'find_missions', {
      tag: 'mcp',
      limit: 50,
    });
    expect(Object.keys(found).sort()).toEqual(['items', 'nextCursor']);
    expect(found.items.map((m) => m.id)).toContain(posted.id);
    const seen = await callJson<{ description: string; attachments: { id: string; filename: string }[] }>(
      agent,
      'get_mission',
      { id: posted.id },
    );
    expect(seen.description).toBe('Write a haiku about escrow');
    // The attachments: text as text, an image as an image, a PDF as an embedded resource.
    const fileId = (name: string) => seen.attachments.find((f) => f.filename === name)!.id;
    const brief = await call(agent, 'get_mission_file', { id: posted.id, fileId: fileId('brief.md') });
    expect(JSON.parse(brief.content[0]!.text)).toMatchObject({ filename: 'brief.md', contentType: 'text/markdown' });
    expect(brief.content[1]).toEqual({ type: 'text', text: '# Brief\n\nThree lines, 5-7-5.\n' });
    const mood = (
      await agent.callTool({ name: 'get_mission_file', arguments: { id: posted.id, fileId: fileId('mood.png') } })
    ).content as { type: string; data?: string; mimeType?: string }[];
    expect(mood[1]).toEqual({ type: 'image', data: PNG_1X1, mimeType: 'image/png' });
    const terms = (
      await agent.callTool({ name: 'get_mission_file', arguments: { id: posted.id, fileId: fileId('terms.pdf') } })
    ).content as { type: string; resource?: object }[];
    expect(terms[1]).toEqual({
      type: 'resource',
      resource: {
        uri: `${server.url}/api/missions/${posted.id}/files/${fileId('terms.pdf')}`,
        mimeType: 'application/pdf',
        blob: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64'),
      },
    });

    expect(await callJson(agent, 'accept_mission', { id: posted.id })).toMatchObject({ status: 'ACCEPTED' });

    writeFileSync(
      join(files, 'haiku.txt'),
      'Funds wait in the vault\nuntil the work is approved\nthen the claim is paid\n',
    );
    const submitted = await callJson<{
      status: string;
      submission: { note: string; files: { filename: string; contentType: string }[] };
    }>(agent, 'submit_work', {
      id: posted.id,
      note: 'A haiku, and notes on its form',
      files: ['haiku.txt'], // relative to TASKMARKET_FILE_ROOT
      textFiles: [{ name: 'notes.md', content: '# Form\n\n5-7-5 syllables.\n' }],
    });
    expect(submitted.status).toBe('SUBMITTED');
    expect(submitted.submission.files.map((f) => [f.filename, f.contentType]).sort()).toEqual([
      ['haiku.txt', 'text/plain'],
      ['notes.md', 'text/markdown'],
    ]);

    expect(await callJson(client, 'approve_mission', { id: posted.id })).toMatchObject({ status: 'COMPLETED' });
    expect(await callJson(client, 'review_agent', { id: posted.id, rating: 5, comment: 'Lovely' })).toMatchObject({
      rating: 5,
    });

    expect(await callJson(agent, 'get_earnings')).toMatchObject({ pending: REWARD.toString() });
    await eventually(
      async () => (await claimableOf(server, agentWallet.address)) === REWARD,
      'the release to be mined',
    );
    expect(await callJson(agent, 'claim_earnings')).toMatchObject({ amount: REWARD.toString() });
    await eventually(async () => (await usdcBalanceOf(server, agentWallet.address)) === REWARD, 'the claim to be paid');

    // Accepting it again is refused by the API: the tool error is the API's message, as the CLI prints it.
    const again = await call(agent, 'accept_mission', { id: posted.id });
    expect(again.isError).toBe(true);
    const cli = await runCli(server, agentWallet, ['accept', posted.id]);
    expect(cli.code).toBe(1);
    expect(`Error: ${again.content[0]!.text}\n`).toBe(cli.stderr);
  });

  test(
    'stdout carries the protocol only (the first line answers initialize; logs go to ' +
      'stderr), and the server exits 0 when stdin ends',
    async () => {
      const child = spawn(process.execPath, [CLI, 'mcp'], {
        env: cliEnv(server, agentWallet) as unknown as NodeJS.ProcessEnv,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const params = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params })}\n`);
      const first = JSON.parse((await lines.next()).value as string) as {
        jsonrpc: string;
        id: number;
        result: { serverInfo: { name: string }; capabilities: { tools?: object } };
      };
      expect(first).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        result: { serverInfo: { name: 'taskmarket' }, capabilities: { tools: {} } },
      });
      child.stdin.end();
      const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(exitCode).toBe(0);
      expect(stderr).toContain('taskmarket MCP server');
    },
  );

  test(
    "an APPLICATION mission: accept_mission is refused with the API's message, " + 'apply_to_mission sends the pitch',
    async () => {
      const client = await connect(clientWallet);
      const agent = await connect(agentWallet);
      const posted = await callJson<{ id: string; assignment: string }>(client, 'post_mission', {
        title: 'MCP application mission',
        description: 'Pitch first',
        reward: '1000000',
        deadline: new Date(Date.now() + 86_400_000).toISOString(),
        assignment: 'APPLICATION',
      });
      expect(posted.assignment).toBe('APPLICATION');
      await callJson(agent, 'register_agent');
      const refused = await call(agent, 'accept_mission', { id: posted.id });
      expect(refused.isError).toBe(true);
      const cli = await runCli(server, agentWallet, ['accept', posted.id]);
      expect(`Error: ${refused.content[0]!.text}\n`).toBe(cli.stderr);
      const applied = await agent.callTool({
        name: 'apply_to_mission',
        arguments: { id: posted.id, pitch: 'I have done ten of these' },
      });
      expect(applied.isError).toBeFalsy();
      // The API's JSON as one compact text block; no structuredContent, since no tool declares an outputSchema.
      const [answer] = applied.content as { type: string; text: string }[];
      expect(applied.content).toHaveLength(1);
      expect(answer!.text).not.toContain('\n');
      expect(JSON.parse(answer!.text)).toMatchObject({ pitch: 'I have done ten of these' });
      expect(applied.structuredContent).toBeUndefined();
    },
  );

  test(
    'tools upload local files only from under TASKMARKET_FILE_ROOT (symlinks followed), and ' +
      'none without it; contest_mission sends evidence from it',
    async () => {
      const client = await connect(clientWallet);
      const agent = await connect(agentWallet);
      const posted = await callJson<{ id: string }>(client, 'post_mission', {
        title: 'MCP file root mission',
        description: 'x',
        reward: '1000000',
        deadline: new Date(Date.now() + 86_400_000).toISOString(),
      });
      await callJson(agent, 'register_agent');
      await callJson(agent, 'accept_mission', { id: posted.id });

      const outside = mkdtempSync(join(tmpdir(), 'taskmarket-outside-'));
      writeFileSync(join(outside, 'secret.json'), '{"key":"do not upload"}');
      symlinkSync(join(outside, 'secret.json'), join(files, 'innocent.json'));
      for (const path of [
        join(outside, 'secret.json'),
        '../' + join(outside, 'secret.json').split('/').slice(-2).join('/'),
        'innocent.json',
      ]) {
        const refused = await call(agent, 'submit_work', { id: posted.id, note: 'x', files: [path] });
        expect(refused.isError).toBe(true);
        expect(refused.content[0]!.text).toContain('outside TASKMARKET_FILE_ROOT');
      }
      const rootless = await connect(agentWallet, { fileRoot: '' });
      const off = await call(rootless, 'submit_work', { id: posted.id, note: 'x', files: ['haiku.txt'] });
      expect(off.isError).toBe(true);
      expect(off.content[0]!.text).toContain('set TASKMARKET_FILE_ROOT');
      // Inline text needs no root; nothing above reached the API, so the mission is still ACCEPTED.
      expect(
        await callJson(rootless, 'submit_work', {
          id: posted.id,
          note: 'x',
          textFiles: [{ name: 'a.txt', content: 'a' }],
        }),
      ).toMatchObject({ status: 'SUBMITTED' });
      // The client's evidence comes from its root too.
      writeFileSync(join(files, 'evidence.md'), 'One line, not three.\n');
      const contested = await callJson<{
        status: string;
        contests: { reason: string; files: { filename: string }[] }[];
      }>(client, 'contest_mission', {
        id: posted.id,
        reason: 'Not a haiku',
        files: ['evidence.md'],
      });
      expect(contested).toMatchObject({
        status: 'CONTESTED',
        contests: [{ reason: 'Not a haiku', files: [{ filename: 'evidence.md' }] }],
      });
      rmSync(outside, { recursive: true, force: true });
    },
  );

  test("a tool error carries the API's message (and its details)", async () => {
    const agent = await connect(agentWallet);
    const unknown = crypto.randomUUID();
    const api = (await (await fetch(`${server.url}/api/missions/${unknown}`)).json()) as { error: string };
    const missing = await call(agent, 'get_mission', { id: unknown });
    expect(missing).toMatchObject({ isError: true, content: [{ type: 'text', text: api.error }] });

    // Refused: the API's validation message and details. The mission is posted before it is funded
    // (docs/api.md#post-and-pay), so nothing was escrowed and nothing is to reuse.
    const client = await connect(clientWallet);
    const mission = {
      title: 'MCP refused, then funded by signature',
      description: 'x',
      reward: '1000000',
      deadline: new Date(Date.now() + 86_400_000).toISOString(),
    };
    const balance = await usdcBalanceOf(server, clientWallet.address);
    const refused = await call(client, 'post_mission', { ...mission, tags: ['no,commas'] });
    expect(refused.isError).toBe(true);
    const [message, ...rest] = refused.content[0]!.text.split('\n');
    expect(message).toBe('Validation failed');
    expect(rest[0]).toMatch(/^- tags\.0: /);
    expect(refused.content[0]!.text).not.toMatch(/escrowed in task/);
    expect(await usdcBalanceOf(server, clientWallet.address)).toBe(balance);

    // Without TASKMARKET_RPC_URL the wallet key still funds it: one signature the server relays, so
    // the mission is OPEN with its task and the reward left the wallet; reads still work.
    const offChain = await connect(clientWallet, { chain: false });
    const signed = await callJson<{ id: string; status: string; onChainTaskId: number }>(
      offChain,
      'post_mission',
      mission,
    );
    expect(signed).toMatchObject({ status: 'OPEN', onChainTaskId: expect.any(Number) });
    expect(await usdcBalanceOf(server, clientWallet.address)).toBe(balance - 1_000_000n);
    expect(await callJson(offChain, 'get_mission', { id: signed.id })).toMatchObject({ id: signed.id, status: 'OPEN' });
  });
});
