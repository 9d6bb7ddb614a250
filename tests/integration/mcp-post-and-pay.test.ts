// Post and pay from the chat, end to end (docs/api.md#post-and-pay): the MCP SDK's own Client, with a
// person's personal token, posts a mission; the answer is its funding URL (a URL elicitation where
// the client declared it, the tool's text otherwise); the person funds it with one signature of the
// typed data, as the funding page does, from a wallet that holds USDC and no ETH; the mission is OPEN
// with the task on-chain; an agent accepts and delivers; the chat approves, through the person's yes
// when the token's release limit asks for it (docs/api.md#confirmations); the escrow releases.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, test } from 'vitest';
import { ANVIL_KEYS } from '@/lib/chain/anvil-node';
import { mockUsdcArtifact } from '@/lib/chain/artifacts';
import { POST as decideRoute } from '@/app/api/confirmations/[id]/route';
import { POST as postMcp } from '@/app/api/mcp/route';
import { GET as readFunding, POST as postFunding } from '@/app/api/missions/[id]/funding/route';
import { POST as createToken } from '@/app/api/tokens/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { privateKeyToAccount } from 'viem/accounts';
import { inject } from 'vitest';
import type { Hex } from 'viem';
import { publicClient, walletOf } from '../support/chain';
import { useTestEnvironment } from '../support/environment';
import { claimableOnChain, taskOnChain, tokenBalance } from '../support/escrow';
import { call } from '../support/http';
import { act, inDays, missionRow, newAgent, ok } from '../support/missions';
import { newWallet, signIn } from '../support/wallets';

useTestEnvironment({
  PLATFORM_FEE_BPS: '1000',
  WRITE_RATE_LIMIT_PER_MINUTE: '100000',
  MCP_RATE_LIMIT_PER_MINUTE: '100000',
});

const URL_ = 'https://app.example.com/api/mcp';
const REWARD = 25_000_000n;
const RELEASED = 2; // the escrow's Released state
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
  const client = new Client({ name: 'post-and-pay-test', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  clients.push(client);
  return client;
}
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
});

/** A person whose wallet holds `usdc` of the reward token and no ETH, signed in, with a chat's personal token. */
async function poster(usdc = REWARD) {
  const wallet = newWallet();
  const { rewardToken } = inject('contracts') as { rewardToken: Hex };
  // MockUSDC mints to anyone; the minting is paid by another wallet.
  const minter = walletOf(privateKeyToAccount(ANVIL_KEYS[3]));
  await publicClient().waitForTransactionReceipt({
    hash: await minter.writeContract({
      address: rewardToken,
      abi: mockUsdcArtifact.abi,
      functionName: 'mint',
      args: [wallet.address, usdc],
    }),
  });
  const { token, user } = await signIn(wallet);
  const personal = await call(createToken, {
    method: 'POST',
    token,
    body: { name: 'chat', scopes: ['missions:read', 'missions:post'] },
  });
  expect(personal.status, JSON.stringify(personal.body)).toBe(201);
  return {
    wallet,
    token,
    id: user.id as string,
    address: user.walletAddress as string,
    chatToken: personal.body.token as string,
  };
}

const mission = (title: string) => ({
  title,
  description: 'Three paragraphs, one per paper.',
  category: 'writing',
  reward: REWARD.toString(),
  deadline: inDays(7),
});

/** What the funding page does: read the typed data, have the wallet sign it, post the signature. */
async function fundBySignature(person: Awaited<ReturnType<typeof poster>>, id: string) {
  const funding = await call(readFunding, { token: person.token, params: { id } });
  expect(funding.status, JSON.stringify(funding.body)).toBe(200);
  expect(funding.body).toMatchObject({ amount: REWARD.toString(), status: 'awaiting_signature', relayAvailable: true });
  const { domain, types, primaryType, message } = funding.body.typedData;
  const { EIP712Domain: _domain, ...rest } = types;
  const signature = await person.wallet.signTypedData({ domain, types: rest, primaryType, message });
  const posted = await call(postFunding, { method: 'POST', token: person.token, params: { id }, body: { signature } });
  expect(posted.status, JSON.stringify(posted.body)).toBe(202);
  // The relayed task is mined: the funding reads funded, the mission OPEN.
  for (let i = 0; i < 100; i++) {
    const now = await call(readFunding, { token: person.token, params: { id } });
    if (now.body.status === 'funded' || (await missionRow(id)).status === 'OPEN') break;
    expect(now.body.status).not.toBe('failed');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[]).map((c) => c.text);

describe('post and pay from the chat', () => {
  test('default: post, fund by one signature, accept, deliver, approve through the person, paid on-chain', async () => {
    const person = await poster();
    const chat = await mcpClient(person.chatToken, { elicitation: { url: {} } });
    const args = mission(`Summarise three papers ${Date.now()}`);

    // post_mission: created AWAITING_FUNDING, and the URL comes as a URL elicitation.
    const elicited = await chat.callTool({ name: 'post_mission', arguments: args }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(elicited).toBeInstanceOf(UrlElicitationRequiredError);
    const [elicitation] = (elicited as UrlElicitationRequiredError).elicitations;
    const id = /\/missions\/([0-9a-f-]{36})\/fund$/.exec(elicitation!.url)?.[1];
    expect(elicitation).toMatchObject({ mode: 'url', url: `https://app.example.com/missions/${id}/fund` });
    expect(elicitation!.message).toContain(id);
    expect((await missionRow(id!)).status).toBe('AWAITING_FUNDING');
    // Called again before it is funded (a client retrying): the same mission, the same URL.
    const retried = await chat.callTool({ name: 'post_mission', arguments: args }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((retried as UrlElicitationRequiredError).elicitations[0]!.url).toBe(elicitation!.url);
    const waiting = await chat.callTool({ name: 'get_mission', arguments: { id } });
    expect(textOf(waiting).join('\n')).toMatch(/Awaiting funding[\s\S]*\/fund/);
    // A read-only token of the same person reads it too: the funding's status needs missions:post,
    // and get_mission does without it rather than asking the client to re-authorize (step-up).
    const reader = await call(createToken, {
      method: 'POST',
      token: person.token,
      body: { name: 'reader', scopes: ['missions:read'] },
    });
    const readOnly = await mcpClient(reader.body.token as string, {});
    const read = await readOnly.callTool({ name: 'get_mission', arguments: { id } });
    expect(read.isError).toBeFalsy();
    expect(textOf(read).join('\n')).toMatch(/Awaiting funding[\s\S]*\/fund/);

    // The person funds it with one signature; their wallet has no ETH and sends nothing.
    await fundBySignature(person, id!);
    const funded = await missionRow(id!);
    expect(funded.status).toBe('OPEN');
    const taskId = funded.onChainTaskId!;
    expect(await taskOnChain(taskId)).toMatchObject({ client: person.address.toLowerCase(), amount: REWARD });
    expect(await tokenBalance(person.address)).toBe(0n);
    expect(await publicClient().getBalance({ address: person.wallet.address })).toBe(0n);
    expect(await publicClient().getTransactionCount({ address: person.wallet.address })).toBe(0);
    // The chat sees it OPEN; posting the same arguments again answers the same mission, not a second one.
    expect(JSON.parse(textOf(await chat.callTool({ name: 'get_mission', arguments: { id } }))[0]!)).toMatchObject({
      id,
      status: 'OPEN',
      onChainTaskId: taskId,
    });
    const again = await chat.callTool({ name: 'post_mission', arguments: args });
    expect(again.isError).toBeFalsy();
    expect(JSON.parse(textOf(again)[0]!)).toMatchObject({ id, status: 'OPEN' });

    // An agent accepts and delivers.
    const worker = await newAgent();
    await ok(act('accept', worker, id!));
    await ok(act('submit', worker, id!, { note: 'Done: the summaries are in the note.' }));

    // The chat approves; beyond the token's release limit (none by default) the person says yes.
    const asked = await chat.callTool({ name: 'approve_mission', arguments: { id } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(asked).toBeInstanceOf(UrlElicitationRequiredError);
    const confirmationId = (asked as UrlElicitationRequiredError).elicitations[0]!.elicitationId;
    expect((await missionRow(id!)).status).toBe('SUBMITTED');
    const decided = await call(decideRoute, {
      method: 'POST',
      token: person.token,
      params: { id: confirmationId },
      body: { decision: 'approve' },
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body).toMatchObject({ status: 'APPROVED', mission: { id, status: 'COMPLETED' } });

    // Paid: the escrow released the reward, less the fee, to the agent.
    expect((await taskOnChain(taskId)).state).toBe(RELEASED);
    expect(await claimableOnChain(worker.address)).toBe((REWARD * 9_000n) / 10_000n);
  });

  test("behavior: a client without URL elicitation gets the funding URL in the tool's text", async () => {
    const person = await poster();
    const chat = await mcpClient(person.chatToken, { elicitation: { form: {} } });
    const result = await chat.callTool({ name: 'post_mission', arguments: mission(`Translate a page ${Date.now()}`) });
    expect(result.isError).toBeFalsy();
    const [api, note] = textOf(result);
    const created = JSON.parse(api!);
    expect(created).toMatchObject({
      status: 'AWAITING_FUNDING',
      funding: { url: `https://app.example.com/missions/${created.id}/fund` },
    });
    expect(note).toContain(created.funding.url);
    expect(note).toMatch(/one signature/);
    expect((await missionRow(created.id)).status).toBe('AWAITING_FUNDING');
  });
});
