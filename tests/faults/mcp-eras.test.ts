// Both MCP protocol eras, the whole loop, through two production instances behind a round-robin balancer
// (docs/api.md#mcp-protocol-eras): a person's chat posts a mission, the person funds it with one
// signature, an agent accepts and delivers, the chat approves through the person's yes, and the agent is
// paid on-chain — once with the v2 SDK client pinned to 2026-07-28 (input_required, a sealed requestState
// any instance opens) and once with the 1.x client (2025-11-25: the URL elicitation error, then the call
// again). The client's requests alternate between the instances.
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createPublicClient, createTestClient, createWalletClient, http, parseEther, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mockUsdcArtifact, taskEscrowArtifact } from '@/lib/chain/artifacts';
import { freePort } from '@/lib/chain/anvil-node';
import { startLocalChain, type LocalChain } from '@/lib/chain/local-chain';
import { connectMcp } from '../support/mcp-client';
import { type Instance, loggedFailures, productionEnv, startPair, type Pair } from '../support/faults/instances';
import { request, signIn } from '../support/faults/client';
import { startRoundRobin, type RoundRobin } from '../support/faults/round-robin';
import { freshMachineDatabase } from '../support/faults/services';

const MACHINE_REDIS = 'redis://127.0.0.1:6379';
const REWARD = 3_000_000n;

let chain: LocalChain;
let database: Awaited<ReturnType<typeof freshMachineDatabase>>;
let pair: Pair;
let proxy: RoundRobin;

beforeAll(async () => {
  [chain, database] = await Promise.all([startLocalChain({ port: await freePort() }), freshMachineDatabase()]);
  const port = await freePort();
  pair = await startPair(
    productionEnv(
      { databaseUrl: database.url, redisUrl: MACHINE_REDIS, chain },
      { APP_ORIGINS: `http://127.0.0.1:${port}`, PLATFORM_FEE_BPS: '0' },
    ),
  );
  proxy = await startRoundRobin(pair.both, port);
});

afterAll(async () => {
  if (pair) expect([...loggedFailures(pair.a), ...loggedFailures(pair.b)]).toEqual([]);
  await proxy?.close();
  await pair?.stop();
  await chain?.stop();
  await database?.drop();
});

const reader = () => createPublicClient({ chain: foundry, transport: http(chain.rpcUrl) });

/** A person whose wallet holds the reward in USDC and no ETH, signed in, with a chat's personal token. */
async function person() {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const minter = privateKeyToAccount(generatePrivateKey());
  const transport = http(chain.rpcUrl);
  await createTestClient({ chain: foundry, mode: 'anvil', transport }).setBalance({
    address: minter.address,
    value: parseEther('1'),
  });
  const hash = await createWalletClient({ chain: foundry, transport, account: minter }).writeContract({
    address: chain.contracts.rewardToken as Hex,
    abi: mockUsdcArtifact.abi,
    functionName: 'mint',
    args: [wallet.address, REWARD],
  });
  await reader().waitForTransactionReceipt({ hash });
  const { token } = await signIn(pair.a, pair.a, wallet);
  const chat = await request(pair.b, '/api/tokens', {
    token,
    body: { name: 'chat', scopes: ['missions:read', 'missions:post'], expiresIn: 3600 },
  });
  expect(chat.status, JSON.stringify(chat.body)).toBe(201);
  return { wallet, session: token, chatToken: chat.body.token as string };
}
type Person = Awaited<ReturnType<typeof person>>;

async function agent() {
  const { token: signedIn, account } = await signIn(pair.b);
  const registered = await request(pair.a, '/api/auth/register-agent', { method: 'POST', token: signedIn });
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  const made = await request(pair.b, '/api/tokens', {
    token: registered.body.token,
    body: { name: 'worker', scopes: ['missions:read', 'missions:work'], expiresIn: 3600 },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { address: account.address, token: made.body.token as string };
}

/** What the funding page does: the typed data signed by the person's wallet, relayed; until OPEN. */
async function fund(who: Person, missionId: string, on: Instance) {
  const funding = await request(on, `/api/missions/${missionId}/funding`, { token: who.session });
  expect(funding.status, JSON.stringify(funding.body)).toBe(200);
  const { domain, types, primaryType, message } = funding.body.typedData;
  const { EIP712Domain: _domain, ...rest } = types;
  const signature = await (who.wallet as PrivateKeyAccount).signTypedData({
    domain,
    types: rest,
    primaryType,
    message,
  });
  const posted = await request(on, `/api/missions/${missionId}/funding`, { token: who.session, body: { signature } });
  expect(posted.status, JSON.stringify(posted.body)).toBe(202);
  for (let i = 0; i < 300; i++) {
    const mission = await request(on, `/api/missions/${missionId}`, { token: who.session });
    if (mission.body.status === 'OPEN') return;
    const now = await request(on, `/api/missions/${missionId}/funding`, { token: who.session });
    expect(now.body.status).not.toBe('failed');
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`mission ${missionId} never opened`);
}

/** The person's yes on the confirmation page. */
async function approveConfirmation(who: Person, confirmationId: string) {
  const decided = await request(pair.b, `/api/confirmations/${confirmationId}`, {
    token: who.session,
    body: { decision: 'approve' },
  });
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
}

const missionArgs = (title: string) => ({
  title,
  description: 'Two instances, one loop.',
  category: 'mcp-eras',
  reward: REWARD.toString(),
  deadline: new Date(Date.now() + 3 * 86_400_000).toISOString(),
});

const texts = (result: unknown) => ((result as { content: { text: string }[] }).content ?? []).map((c) => c.text);
const json = (result: unknown) => {
  if ((result as { isError?: boolean }).isError) throw new Error(texts(result).join('\n'));
  return JSON.parse(texts(result)[0]!);
};

async function paid(who: Person, missionId: string, agentAddress: string) {
  const mission = await request(pair.a, `/api/missions/${missionId}`, { token: who.session });
  expect(mission.body.status, JSON.stringify(mission.body)).toBe('COMPLETED');
  const claimable = await reader().readContract({
    address: chain.contracts.escrow as Hex,
    abi: taskEscrowArtifact.abi,
    functionName: 'claimable',
    args: [agentAddress as Hex],
  });
  expect(claimable).toBe(REWARD);
}

/** A v2 client pinned to 2026-07-28, through the balancer, declaring URL elicitation answered by `onUrl`. */
async function modernClient(token: string, onUrl?: (url: string) => Promise<void>) {
  const client = new Client(
    { name: 'eras-modern', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: onUrl ? { elicitation: { url: {} } } : {} },
  );
  if (onUrl) {
    client.setRequestHandler('elicitation/create', async (elicit) => {
      await onUrl((elicit.params as { url: string }).url);
      return { action: 'accept' };
    });
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${proxy.url}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  expect(client.getProtocolEra()).toBe('modern');
  return client;
}

describe('the whole loop on either protocol era, through two instances', () => {
  test('default: a v2 client pinned to 2026-07-28 posts, funds, approves via the person; agent paid', async () => {
    const who = await person();
    const worker = await agent();
    const from = proxy.served.length;
    const elicited: string[] = [];
    const chat = await modernClient(who.chatToken, async (url) => {
      elicited.push(url);
      const { pathname } = new URL(url);
      const funding = /^\/missions\/([^/]+)\/fund$/.exec(pathname);
      if (funding) await fund(who, funding[1]!, pair.a);
      else await approveConfirmation(who, pathname.split('/').pop()!);
    });
    // post → fund: one call; the retry, answered by whichever instance, opens the sealed state.
    const posted = json(await chat.callTool({ name: 'post_mission', arguments: missionArgs(`Modern ${Date.now()}`) }));
    expect(posted.status).toBe('OPEN');
    expect(elicited).toEqual([`${proxy.url}/missions/${posted.id}/fund`]);
    // accept → submit, by the agent's own 2026 client.
    const work = await modernClient(worker.token);
    expect(json(await work.callTool({ name: 'accept_mission', arguments: { id: posted.id } })).status).toBe('ACCEPTED');
    const submitted = await work.callTool({ name: 'submit_work', arguments: { id: posted.id, note: 'Done on 2026.' } });
    expect(json(submitted).status).toBe('SUBMITTED');
    // approve with a confirmation → paid.
    const approved = await chat.callTool({ name: 'approve_mission', arguments: { id: posted.id } });
    expect(JSON.parse(texts(approved)[0]!)).toMatchObject({ status: 'APPROVED', mission: { id: posted.id } });
    expect(elicited).toHaveLength(2);
    await paid(who, posted.id, worker.address);
    // Every request went through the balancer, both instances answering.
    const calls = proxy.served.slice(from).filter((s) => s.path === '/api/mcp' && s.method === 'POST');
    expect(calls.every((s) => s.status === 200)).toBe(true);
    for (const instance of [0, 1]) expect(calls.filter((s) => s.instance === instance).length).toBeGreaterThan(2);
    await Promise.all([chat.close(), work.close()]);
  });

  test('default: the 1.x client on 2025-11-25 runs the same loop: URL elicitation, then the call again', async () => {
    const who = await person();
    const worker = await agent();
    const chat: LegacyClient = await connectMcp(`${proxy.url}/api/mcp`, { token: who.chatToken });
    // connectMcp declares no capabilities: this client is told in text, as most 2025 clients are.
    const args = missionArgs(`Legacy ${Date.now()}`);
    const first = await chat.callTool({ name: 'post_mission', arguments: args });
    const created = JSON.parse(texts(first)[0]!);
    expect(created).toMatchObject({
      status: 'AWAITING_FUNDING',
      funding: { url: `${proxy.url}/missions/${created.id}/fund` },
    });
    await fund(who, created.id, pair.b);
    expect(json(await chat.callTool({ name: 'post_mission', arguments: args }))).toMatchObject({
      id: created.id,
      status: 'OPEN',
    });
    const work = await connectMcp(`${proxy.url}/api/mcp`, { token: worker.token });
    expect(json(await work.callTool({ name: 'accept_mission', arguments: { id: created.id } })).status).toBe(
      'ACCEPTED',
    );
    expect(
      json(await work.callTool({ name: 'submit_work', arguments: { id: created.id, note: 'Done on 2025.' } })).status,
    ).toBe('SUBMITTED');
    const asked = await chat.callTool({ name: 'approve_mission', arguments: { id: created.id } });
    const { confirmation } = JSON.parse(texts(asked)[0]!);
    await approveConfirmation(who, confirmation.id);
    expect(json(await chat.callTool({ name: 'get_confirmation', arguments: { id: confirmation.id } }))).toMatchObject({
      status: 'APPROVED',
    });
    await paid(who, created.id, worker.address);
    await Promise.all([chat.close(), work.close()]);
  });

  test('behavior: a 1.x client that declared URL elicitation gets -32042 for funding and confirmation', async () => {
    const who = await person();
    const worker = await agent();
    const { Client: V1Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport: V1Transport } = await import(
      '@modelcontextprotocol/sdk/client/streamableHttp.js'
    );
    const chat = new V1Client(
      { name: 'eras-legacy', version: '1.0.0' },
      { capabilities: { elicitation: { url: {} } } },
    );
    await chat.connect(
      new V1Transport(new URL(`${proxy.url}/api/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${who.chatToken}` } },
      }),
    );
    const args = missionArgs(`Legacy elicited ${Date.now()}`);
    const refused = await chat.callTool({ name: 'post_mission', arguments: args }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UrlElicitationRequiredError);
    const fundUrl = (refused as UrlElicitationRequiredError).elicitations[0]!.url;
    const missionId = /\/missions\/([^/]+)\/fund$/.exec(fundUrl)![1]!;
    await fund(who, missionId, pair.a);
    expect(json(await chat.callTool({ name: 'post_mission', arguments: args })).status).toBe('OPEN');
    const work = await connectMcp(`${proxy.url}/api/mcp`, { token: worker.token });
    json(await work.callTool({ name: 'accept_mission', arguments: { id: missionId } }));
    json(await work.callTool({ name: 'submit_work', arguments: { id: missionId, note: 'Done.' } }));
    const waiting = await chat
      .callTool({ name: 'approve_mission', arguments: { id: missionId } })
      .catch((e: unknown) => e);
    expect(waiting).toBeInstanceOf(UrlElicitationRequiredError);
    await approveConfirmation(who, (waiting as UrlElicitationRequiredError).elicitations[0]!.elicitationId);
    await paid(who, missionId, worker.address);
    await Promise.all([chat.close(), work.close()]);
  });
});
