// A standing allowance (docs/api.md#standing-allowance), as its users meet it: the person signs a USDC
// permit and a FundingMandate once on /api/account/allowance (real viem signatures, real anvil, escrow
// v5), the relayer sets it; the MCP SDK's own client, with a personal token whose grant may fund 50 USDC
// a day, posts missions that come back funded and OPEN until a cap stops one, which waits
// AWAITING_FUNDING naming the cap. Bad mandates are refused by the API and by the chain; a revoked one
// stops the next post; an RPC outage between recording and sending never funds twice.
import { type Hex, type PrivateKeyAccount, parseEventLogs, toFunctionSelector } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, inject, test, vi } from 'vitest';
import { GET as allowanceGet, POST as allowancePost } from '@/app/api/account/allowance/route';
import { GET as revocationGet, POST as revocationPost } from '@/app/api/account/allowance/revocation/route';
import { POST as verifyPost } from '@/app/api/auth/verify/route';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { PATCH as patchGrant } from '@/app/api/grants/[id]/route';
import { POST as postMcp } from '@/app/api/mcp/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { GET as listTokens, POST as createToken } from '@/app/api/tokens/route';
import { ANVIL_KEYS } from '@/lib/chain/anvil-node';
import { mockUsdcArtifact, taskEscrowV5Artifact } from '@/lib/chain/artifacts';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { grantFundings, missionFundings, webhookEvents } from '@/lib/db/schema';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { eq } from 'drizzle-orm';
import { fund, publicClient, walletOf } from '../support/chain';
import { setEnv, useTestEnvironment } from '../support/environment';
import { chainNow, taskOnChain } from '../support/escrow';
import { call } from '../support/http';
import { callTool, connectMcp } from '../support/mcp-client';
import { inDays, missionRow, newAgent } from '../support/missions';
import { publish } from '../support/offerings';
import { workerRpcUrl } from '../support/ports';
import { startRpcProxy } from '../support/rpc-proxy';
import { deployTestContract, newDeployer } from '../support/test-contracts';
import { newWallet, requestNonce, siweMessage, signIn } from '../support/wallets';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

useTestEnvironment({
  WRITE_RATE_LIMIT_PER_MINUTE: '100000',
  MCP_RATE_LIMIT_PER_MINUTE: '100000',
  MINT_WAIT_MS: '5000',
});

const USDC = 1_000_000n;
const contracts = () => inject('contracts') as { escrow: Hex; rewardToken: Hex };
const escrowAbi = taskEscrowV5Artifact.abi;
// The relayer: RELAYER_PRIVATE_KEY, else the operator's or the registrar's key.
const relayerAddress = () => privateKeyToAccount(config().chain.relayerKey!).address;

const routeFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress('10.9.9.8'));
  return postMcp(request, { params: Promise.resolve({}) });
};
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
});

async function mintUsdc(to: Hex, amount: bigint) {
  const minter = walletOf(privateKeyToAccount(ANVIL_KEYS[3]));
  await publicClient().waitForTransactionReceipt({
    hash: await minter.writeContract({
      address: contracts().rewardToken,
      abi: mockUsdcArtifact.abi,
      functionName: 'mint',
      args: [to, amount],
    }),
  });
}

/** A chat's personal token of the signed-in `token` that may fund `fundingLimit`. */
async function chatToken(token: string, fundingLimit: bigint) {
  const personal = await call(createToken, {
    method: 'POST',
    token,
    body: { name: 'chat', scopes: ['missions:read', 'missions:post'], fundingLimit: fundingLimit.toString() },
  });
  expect(personal.status, JSON.stringify(personal.body)).toBe(201);
  return { chatToken: personal.body.token as string, grantId: personal.body.grant.id as string };
}

/** A person holding `usdc`, signed in with their wallet, and a chat's personal token that may fund `fundingLimit`. */
async function person(usdc = 200n * USDC, fundingLimit = 50n * USDC) {
  const wallet = newWallet();
  if (usdc > 0n) await mintUsdc(wallet.address, usdc);
  const { token, user } = await signIn(wallet);
  return { wallet, token, userId: user.id as string, ...(await chatToken(token, fundingLimit)) };
}

/**
 * A person whose wallet is an ERC-1271 contract (contracts/test/OwnedWallet.sol) holding `usdc`: signed in as
 * the contract by its owner's signature (docs/api.md#sign-in, step 4). `wallet` is the owner, who signs for
 * it; `address` is the contract, the person.
 */
async function contractWalletPerson(usdc: bigint, fundingLimit: bigint) {
  const owner = newWallet();
  const address = await deployTestContract(await newDeployer(), 'OwnedWallet', [owner.address]);
  await mintUsdc(address, usdc);
  const message = siweMessage(owner, await requestNonce(address), { address });
  const signedIn = await call(verifyPost, { body: { message, signature: await owner.signMessage({ message }) } });
  expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
  expect(signedIn.body.user.walletAddress).toBe(address.toLowerCase());
  const token = signedIn.body.token as string;
  return {
    wallet: owner,
    address,
    token,
    userId: signedIn.body.user.id as string,
    ...(await chatToken(token, fundingLimit)),
  };
}
type Person = Awaited<ReturnType<typeof person>>;

interface Terms {
  total: string;
  perMission: string;
  perDay: string;
  validUntil: string;
}
const termsOf = async (o: Partial<Record<keyof Terms, bigint>> = {}): Promise<Terms> => ({
  total: (o.total ?? 150n * USDC).toString(),
  perMission: (o.perMission ?? 30n * USDC).toString(),
  perDay: (o.perDay ?? 100n * USDC).toString(),
  validUntil: (o.validUntil ?? (await chainNow()) + 30n * 86400n).toString(),
});

const readAllowance = (p: Person, terms?: Terms) =>
  call(allowanceGet, {
    token: p.token,
    path: `/api/account/allowance${terms ? `?${new URLSearchParams({ ...terms })}` : ''}`,
  });

type TypedData = { domain: any; types: any; primaryType: string; message: Record<string, unknown> };
const sign = (wallet: PrivateKeyAccount, data: TypedData) =>
  wallet.signTypedData({
    domain: data.domain,
    types: data.types,
    primaryType: data.primaryType,
    message: data.message,
  } as never);

/** What the allowance page does: read the typed data of the terms, sign both, post them. */
async function signAllowance(p: Person, terms: Terms, signer: PrivateKeyAccount = p.wallet) {
  const read = await readAllowance(p, terms);
  expect(read.status, JSON.stringify(read.body)).toBe(200);
  const { permit, mandate } = read.body.typedData as { permit: TypedData; mandate: TypedData };
  return {
    permit,
    mandate,
    permitSignature: await sign(signer, permit),
    mandateSignature: await sign(signer, mandate),
  };
}

async function setAllowance(p: Person, terms: Terms) {
  const signed = await signAllowance(p, terms);
  const posted = await call(allowancePost, {
    token: p.token,
    body: { terms, permitSignature: signed.permitSignature, mandateSignature: signed.mandateSignature },
  });
  expect(posted.status, JSON.stringify(posted.body)).toBe(202);
  expect(posted.body.relay).toMatchObject({ kind: 'set', status: 'mined' });
  return { ...signed, answer: posted.body };
}

const post = (p: Person, reward: bigint, token = p.chatToken) =>
  call(createRoute, {
    token,
    body: {
      title: `Summarise a paper ${Math.random()}`,
      description: 'One paragraph.',
      category: 'writing',
      reward: reward.toString(),
      deadline: inDays(7),
    },
  });

async function chat(p: Person) {
  const client = await connectMcp('https://app.example.com/api/mcp', { token: p.chatToken }, routeFetch);
  clients.push(client);
  return client;
}

const mandateCreated = async (fromBlock: bigint, client: Hex) =>
  parseEventLogs({
    abi: escrowAbi,
    eventName: 'TaskFundedByMandate',
    logs: await publicClient().getLogs({ address: contracts().escrow, fromBlock }),
  }).filter((e) => e.args.client.toLowerCase() === client.toLowerCase());

const sweep = () =>
  call(sweepRoute, { method: 'POST', headers: { authorization: `Bearer ${process.env.CRON_SECRET}` } });

const DAY_MS = 24 * 3600 * 1000;

/** Puts every funding the grant has recorded at `at`: the API stamps them with the real clock. */
const moveGrantFundings = async (grantId: string, at: Date) =>
  (await getDb()).update(grantFundings).set({ createdAt: at }).where(eq(grantFundings.grantId, grantId));

/** What Connected apps says the grant funded in the last 24 h. */
const fundedLast24h = async (p: Person) =>
  (await call(listTokens, { token: p.token })).body.items.find((g: { id: string }) => g.id === p.grantId)
    .fundedLast24h as string;

describe('a standing allowance', () => {
  test('the MCP client posts two 20 USDC missions funded and OPEN, and a third waits naming the grant', async () => {
    const p = await person();
    const before = await readAllowance(p);
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body).toMatchObject({ mandate: null, fundedToday: '0', allowance: '0' });
    const { answer } = await setAllowance(p, await termsOf());
    expect(answer.mandate).toMatchObject({
      funder: relayerAddress().toLowerCase(),
      perMission: String(30n * USDC),
      live: true,
    });
    expect(answer.allowance).toBe(String(150n * USDC));

    const client = await chat(p);
    const mission = (title: string) => ({
      title,
      description: 'One paragraph.',
      category: 'writing',
      reward: String(20n * USDC),
      deadline: inDays(7),
    });
    const fromBlock = await publicClient().getBlockNumber();
    for (const n of [1, 2]) {
      const posted = await callTool(client, 'post_mission', mission(`Paper ${n} ${Date.now()}`));
      expect(posted, JSON.stringify(posted)).toMatchObject({ status: 'OPEN', funding: { status: 'funded' } });
      const row = await missionRow(posted.id);
      expect(row.status).toBe('OPEN');
      // The task is the person's, not the relayer's.
      const task = await taskOnChain(row.onChainTaskId!);
      expect(task).toMatchObject({ client: p.wallet.address.toLowerCase(), amount: 20n * USDC });
      // The person hears of it as of any funding: mission.funded, to them.
      const events = await (await getDb()).select().from(webhookEvents).where(eq(webhookEvents.missionId, posted.id));
      const funded = events.filter((e) => e.event === 'mission.funded');
      expect(funded).toHaveLength(1);
      expect(funded[0]!.audience).toEqual({ users: [p.userId] });
    }
    const third = await client.callTool({ name: 'post_mission', arguments: mission(`Paper 3 ${Date.now()}`) });
    const body = JSON.parse((third.content as { text: string }[])[0]!.text);
    expect(body).toMatchObject({ status: 'AWAITING_FUNDING', funding: { reason: 'grant' } });
    expect(body.funding.url).toMatch(/\/missions\/[0-9a-f-]{36}\/fund$/);
    expect(await mandateCreated(fromBlock, p.wallet.address)).toHaveLength(2);

    // Connected apps shows the grant's limit and its use; the allowance page today's use.
    const listed = await call(listTokens, { token: p.token });
    expect(listed.body.items.find((g: { id: string }) => g.id === p.grantId)).toMatchObject({
      fundingLimit: String(50n * USDC),
      fundedLast24h: String(40n * USDC),
    });
    const after = await readAllowance(p);
    expect(after.body).toMatchObject({ fundedToday: String(40n * USDC), allowance: String(110n * USDC) });
  });

  test('order_offering within the grant is funded at once: the order is ACCEPTED by its agent', async () => {
    const p = await person(200n * USDC, 50n * USDC);
    await setAllowance(p, await termsOf());
    const agent = await newAgent();
    const offering = await publish(agent, { price: String(20n * USDC) });
    const client = await chat(p);
    const fromBlock = await publicClient().getBlockNumber();
    const ordered = await callTool(client, 'order_offering', {
      id: offering.id,
      requirements: { url: 'https://example.com/page' },
    });
    expect(ordered, JSON.stringify(ordered)).toMatchObject({ status: 'ACCEPTED', funding: { status: 'funded' } });
    const row = await missionRow(ordered.id);
    expect(row).toMatchObject({ status: 'ACCEPTED', agentId: agent.id });
    expect(await taskOnChain(row.onChainTaskId!)).toMatchObject({
      client: p.wallet.address.toLowerCase(),
      amount: 20n * USDC,
    });
    expect(await mandateCreated(fromBlock, p.wallet.address)).toHaveLength(1);
    // The order counts against the grant like a post: 30 USDC left, so a 40 USDC order waits naming it.
    const dear = await publish(agent, { price: String(40n * USDC) });
    const waiting = await client.callTool({
      name: 'order_offering',
      arguments: { id: dear.id, requirements: { url: 'https://example.com/other' } },
    });
    const body = JSON.parse((waiting.content as { text: string }[])[0]!.text);
    expect(body).toMatchObject({ status: 'AWAITING_FUNDING', funding: { reason: 'grant' } });
  });

  test('each cap is named: no mandate, per mission, per day, the allowance, the balance', async () => {
    const none = await person(100n * USDC, 1000n * USDC);
    expect((await post(none, 5n * USDC)).body.funding).toMatchObject({ reason: 'no-mandate' });

    const capped = await person(500n * USDC, 1000n * USDC);
    await setAllowance(capped, await termsOf({ perMission: 10n * USDC, perDay: 25n * USDC, total: 100n * USDC }));
    expect((await post(capped, 15n * USDC)).body.funding).toMatchObject({ reason: 'mandate-per-mission' });
    expect((await post(capped, 10n * USDC)).body).toMatchObject({ status: 'OPEN', funding: { status: 'funded' } });
    expect((await post(capped, 10n * USDC)).body).toMatchObject({ status: 'OPEN' });
    expect((await post(capped, 10n * USDC)).body.funding).toMatchObject({ reason: 'mandate-per-day' });

    // The wallet lowers the escrow's allowance itself: the permit's remainder is the cap.
    const spender = await person(500n * USDC, 1000n * USDC);
    await setAllowance(spender, await termsOf());
    await fund(spender.wallet.address);
    await publicClient().waitForTransactionReceipt({
      hash: await walletOf(spender.wallet).writeContract({
        address: contracts().rewardToken,
        abi: mockUsdcArtifact.abi,
        functionName: 'approve',
        args: [contracts().escrow, 5n * USDC],
      }),
    });
    expect((await post(spender, 10n * USDC)).body.funding).toMatchObject({ reason: 'allowance' });

    const poor = await person(8n * USDC, 1000n * USDC);
    await setAllowance(poor, await termsOf());
    expect((await post(poor, 10n * USDC)).body.funding).toMatchObject({ reason: 'balance' });
    // A wallet sign-in's own post is not delegated: it waits for a signature, with no cap to name.
    const own = await post(poor, 5n * USDC, poor.token);
    expect(own.body.status).toBe('AWAITING_FUNDING');
    expect(own.body.funding.reason).toBeUndefined();
  });

  test('two posts racing for the last of the grant fund exactly one', async () => {
    const p = await person(200n * USDC, 30n * USDC);
    await setAllowance(p, await termsOf());
    const both = await Promise.all([post(p, 20n * USDC), post(p, 20n * USDC)]);
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    const statuses = both.map((r) => r.body.status).sort();
    expect(statuses).toEqual(['AWAITING_FUNDING', 'OPEN']);
    expect(both.find((r) => r.body.status === 'AWAITING_FUNDING')!.body.funding.reason).toBe('grant');
  });

  test('a grant cut to 0 in Connected apps, or a revoked mandate, stops the next post', async () => {
    const p = await person(200n * USDC, 100n * USDC);
    await setAllowance(p, await termsOf());
    expect((await post(p, 5n * USDC)).body.status).toBe('OPEN');
    const cut = await call(patchGrant, {
      method: 'PATCH',
      token: p.token,
      params: { id: p.grantId },
      body: { fundingLimit: '0' },
    });
    expect(cut.status, JSON.stringify(cut.body)).toBe(200);
    expect((await post(p, 5n * USDC)).body.funding).toMatchObject({ reason: 'grant' });
    await call(patchGrant, {
      method: 'PATCH',
      token: p.token,
      params: { id: p.grantId },
      body: { fundingLimit: '100000000' },
    });
    expect((await post(p, 5n * USDC)).body.status).toBe('OPEN');

    const revocation = await call(revocationGet, { token: p.token });
    expect(revocation.status, JSON.stringify(revocation.body)).toBe(200);
    const signature = await sign(p.wallet, revocation.body.typedData);
    const revoked = await call(revocationPost, { token: p.token, body: { signature } });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(202);
    expect(revoked.body.relay).toMatchObject({ kind: 'revoke', status: 'mined' });
    expect((await readAllowance(p)).body.mandate).toBeNull();
    expect((await post(p, 5n * USDC)).body.funding).toMatchObject({ reason: 'no-mandate' });
    // The same revocation again is refused: its nonce is spent.
    expect((await call(revocationPost, { token: p.token, body: { signature } })).status).toBe(400);
    // On-chain, the relayer can no longer fund for them.
    await expect(
      publicClient().simulateContract({
        account: relayerAddress(),
        address: contracts().escrow,
        abi: escrowAbi,
        functionName: 'createTaskFor',
        args: [p.wallet.address, 1n * USDC, `0x${'11'.repeat(32)}`, (await chainNow()) + 30n * 86400n],
      }),
    ).rejects.toThrow();
  });

  test('forged, replayed, another funder’s and expired mandates are refused by the API and by the chain', async () => {
    const p = await person();
    const terms = await termsOf();
    const onChain = (m: TypedData, signature: Hex) =>
      publicClient().simulateContract({
        account: relayerAddress(),
        address: contracts().escrow,
        abi: escrowAbi,
        functionName: 'setFundingMandate',
        args: [
          {
            client: m.message.client as Hex,
            funder: m.message.funder as Hex,
            perMission: BigInt(m.message.perMission as string),
            perDay: BigInt(m.message.perDay as string),
            validUntil: BigInt(m.message.validUntil as string),
            nonce: BigInt(m.message.nonce as string),
          },
          signature,
        ],
      });
    const refused = async (body: Record<string, unknown>, field: RegExp) => {
      const answer = await call(allowancePost, { token: p.token, body });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.details.join(' ')).toMatch(field);
    };

    // Forged: signed by another wallet.
    const forged = await signAllowance(p, terms, newWallet());
    await refused(
      { terms, permitSignature: forged.permitSignature, mandateSignature: forged.mandateSignature },
      /mandateSignature/,
    );
    await expect(onChain(forged.mandate, forged.mandateSignature)).rejects.toThrow(/BadMandateSignature/);

    // Another funder: the person's own signature of a mandate naming someone else.
    const honest = await signAllowance(p, terms);
    const other = { ...honest.mandate, message: { ...honest.mandate.message, funder: newWallet().address } };
    const otherSignature = await sign(p.wallet, other);
    await refused(
      { terms, permitSignature: honest.permitSignature, mandateSignature: otherSignature },
      /mandateSignature/,
    );

    // Expired: the API refuses the terms (by its clock); the chain refuses a signature of them (by the
    // block's). Past for both: other suites on this chain may have moved its time ahead of the wall's.
    const wallNow = BigInt(Math.floor(Date.now() / 1000));
    const chainTime = await chainNow();
    const past = { ...terms, validUntil: String((chainTime < wallNow ? chainTime : wallNow) - 60n) };
    await refused(
      { terms: past, permitSignature: honest.permitSignature, mandateSignature: honest.mandateSignature },
      /validUntil/,
    );
    const expired = { ...honest.mandate, message: { ...honest.mandate.message, validUntil: past.validUntil } };
    await expect(onChain(expired, await sign(p.wallet, expired))).rejects.toThrow(/MandateExpired/);

    // Replayed: the honest one is set, then sent again.
    const set = await call(allowancePost, {
      token: p.token,
      body: { terms, permitSignature: honest.permitSignature, mandateSignature: honest.mandateSignature },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(202);
    await refused(
      { terms, permitSignature: honest.permitSignature, mandateSignature: honest.mandateSignature },
      /mandateSignature/,
    );
    await expect(onChain(honest.mandate, honest.mandateSignature)).rejects.toThrow(/MandateNonceMismatch/);
    expect((await readAllowance(p)).body.mandate.funder).toBe(relayerAddress().toLowerCase());

    // Another funder's mandate, set on-chain by that funder itself: the relayer can no longer fund for
    // the person — the chain refuses its createTaskFor, and the API names no mandate.
    const stranger = newWallet();
    await fund(stranger.address);
    const next = (await readAllowance(p, terms)).body.typedData.mandate as TypedData;
    const theirs = { ...next, message: { ...next.message, funder: stranger.address } };
    const theirSignature = await sign(p.wallet, theirs);
    await publicClient().waitForTransactionReceipt({
      hash: await walletOf(stranger).writeContract({
        address: contracts().escrow,
        abi: escrowAbi,
        functionName: 'setFundingMandate',
        args: [
          {
            client: p.wallet.address,
            funder: stranger.address,
            perMission: BigInt(terms.perMission),
            perDay: BigInt(terms.perDay),
            validUntil: BigInt(terms.validUntil),
            nonce: BigInt(next.message.nonce as string),
          },
          theirSignature,
        ],
      }),
    });
    expect((await readAllowance(p)).body.mandate).toMatchObject({
      funder: stranger.address.toLowerCase(),
      live: false,
    });
    await expect(
      publicClient().simulateContract({
        account: relayerAddress(),
        address: contracts().escrow,
        abi: escrowAbi,
        functionName: 'createTaskFor',
        args: [p.wallet.address, 1n * USDC, `0x${'22'.repeat(32)}`, (await chainNow()) + 30n * 86400n],
      }),
    ).rejects.toThrow();
    expect((await post(p, 5n * USDC)).body.funding).toMatchObject({ reason: 'no-mandate' });
  });

  test('an RPC outage between recording and sending never funds twice', async () => {
    const p = await person();
    await setAllowance(p, await termsOf());
    let down = true;
    let refusedSends = 0;
    const proxy = await startRpcProxy(workerRpcUrl(), (method) => {
      if (down && method === 'eth_sendRawTransaction') {
        refusedSends++;
        return { httpStatus: 503 };
      }
      return undefined;
    });
    setEnv({ RPC_URL: proxy.url });
    try {
      const fromBlock = await publicClient().getBlockNumber();
      const posted = await post(p, 20n * USDC);
      expect(posted.status, JSON.stringify(posted.body)).toBe(201);
      expect(posted.body).toMatchObject({ status: 'AWAITING_FUNDING', funding: { status: 'relaying' } });
      expect(refusedSends).toBe(1);
      const db = await getDb();
      const [row] = await db.select().from(missionFundings).where(eq(missionFundings.missionId, posted.body.id));
      expect(row).toMatchObject({ via: 'MANDATE', status: 'RELAYING' });
      expect(row!.txHash).toMatch(/^0x/);
      // The same post's sweep while still down: nothing leaves, nothing is lost.
      await sweep();
      expect((await missionRow(posted.body.id)).status).toBe('AWAITING_FUNDING');
      down = false;
      await db.update(missionFundings).set({ lockedUntil: null }).where(eq(missionFundings.missionId, posted.body.id));
      await sweep();
      await sweep();
      expect((await missionRow(posted.body.id)).status).toBe('OPEN');
      expect(await mandateCreated(fromBlock, p.wallet.address)).toHaveLength(1);
    } finally {
      setEnv({ RPC_URL: workerRpcUrl() });
      await proxy.close();
    }
  });

  test(
    "a contract wallet's mandate, signed by its owner (EIP-1271), is relayed; a post is then funded and OPEN " +
      "with the contract as the task's client",
    async () => {
      const p = await contractWalletPerson(200n * USDC, 50n * USDC);
      const terms = await termsOf();
      // The typed data are the contract's: the permit's owner and the mandate's client, not the key that signs.
      const signed = await signAllowance(p, terms);
      expect(String(signed.permit.message.owner).toLowerCase()).toBe(p.address.toLowerCase());
      expect(String(signed.mandate.message.client).toLowerCase()).toBe(p.address.toLowerCase());
      // The check asks the contract (isValidSignature), so a key other than its owner is not the wallet.
      const stranger = await signAllowance(p, terms, newWallet());
      const refused = await call(allowancePost, {
        token: p.token,
        body: { terms, permitSignature: stranger.permitSignature, mandateSignature: stranger.mandateSignature },
      });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.details.join(' ')).toMatch(/Signature/);

      const posted = await call(allowancePost, {
        token: p.token,
        body: { terms, permitSignature: signed.permitSignature, mandateSignature: signed.mandateSignature },
      });
      expect(posted.status, JSON.stringify(posted.body)).toBe(202);
      expect(posted.body.relay).toMatchObject({ kind: 'set', status: 'mined' });
      expect(posted.body.mandate).toMatchObject({ funder: relayerAddress().toLowerCase(), live: true });
      expect(posted.body.allowance).toBe(String(150n * USDC));
      // The chain took both: the escrow holds the contract's mandate and may pull from the contract.
      const [funder] = await publicClient().readContract({
        address: contracts().escrow,
        abi: escrowAbi,
        functionName: 'fundingMandate',
        args: [p.address],
      });
      expect(funder.toLowerCase()).toBe(relayerAddress().toLowerCase());

      const fromBlock = (await publicClient().getBlockNumber()) + 1n;
      const mission = await post(p, 20n * USDC);
      expect(mission.status, JSON.stringify(mission.body)).toBe(201);
      expect(mission.body).toMatchObject({ status: 'OPEN', funding: { status: 'funded' } });
      const row = await missionRow(mission.body.id);
      expect(row.status).toBe('OPEN');
      expect(await taskOnChain(row.onChainTaskId!)).toMatchObject({
        client: p.address.toLowerCase(),
        amount: 20n * USDC,
      });
      expect(await mandateCreated(fromBlock, p.address)).toHaveLength(1);
    },
  );

  test('the grant counts a rolling 24 h: once its fundings are older, the post it blocked funds at once', async () => {
    const p = await person(200n * USDC, 50n * USDC);
    await setAllowance(p, await termsOf());
    expect((await post(p, 30n * USDC)).body).toMatchObject({ status: 'OPEN', funding: { status: 'funded' } });
    // 30 of the grant's 50 used in the last 24 h: another 30 waits naming the grant (the mandate's perDay of
    // 100, the permit's 150 and the balance would all cover it).
    expect((await post(p, 30n * USDC)).body).toMatchObject({
      status: 'AWAITING_FUNDING',
      funding: { reason: 'grant' },
    });
    expect(await fundedLast24h(p)).toBe(String(30n * USDC));
    // A day (and a second) passes for the grant's record of that funding. The chain's UTC day does not move,
    // so the mandate's perDay still counts it: 60 of 100, not binding.
    await moveGrantFundings(p.grantId, new Date(Date.now() - DAY_MS - 1000));
    expect(await fundedLast24h(p)).toBe('0');
    expect((await post(p, 30n * USDC)).body).toMatchObject({ status: 'OPEN', funding: { status: 'funded' } });
    expect(await fundedLast24h(p)).toBe(String(30n * USDC));
  });

  test(
    'the grant’s window is the last 24 h, open at its start: a funding exactly 24 h old no longer counts, ' +
      '1 ms younger still does',
    async () => {
      const p = await person(200n * USDC, 50n * USDC);
      await setAllowance(p, await termsOf());
      expect((await post(p, 30n * USDC)).body).toMatchObject({ status: 'OPEN', funding: { status: 'funded' } });
      // A post's instant is the route's new Date(): held still, "exactly 24 h before the post" is exact. Only
      // Date is faked; timers run, so the relay's waits still wait.
      const now = new Date();
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(now);
        await moveGrantFundings(p.grantId, new Date(now.getTime() - DAY_MS + 1));
        expect((await post(p, 30n * USDC)).body).toMatchObject({
          status: 'AWAITING_FUNDING',
          funding: { reason: 'grant' },
        });
        await moveGrantFundings(p.grantId, new Date(now.getTime() - DAY_MS));
        expect((await post(p, 30n * USDC)).body).toMatchObject({ status: 'OPEN', funding: { status: 'funded' } });
      } finally {
        vi.useRealTimers();
      }
    },
  );

  test(
    'two posts racing for the last of the mandate’s perDay (the grant not binding) fund exactly one; the other ' +
      'waits naming mandate-per-day',
    async () => {
      const p = await person(500n * USDC, 1000n * USDC);
      await setAllowance(p, await termsOf({ perMission: 30n * USDC, perDay: 50n * USDC, total: 200n * USDC }));
      expect((await post(p, 30n * USDC)).body).toMatchObject({ status: 'OPEN', funding: { status: 'funded' } });
      // 20 of today's 50 left, and each post asks 20: the first recorded relay is in flight for the second.
      // The blocks after the head: the 30's funding is in the head itself (getLogs' fromBlock is inclusive).
      const fromBlock = (await publicClient().getBlockNumber()) + 1n;
      const both = await Promise.all([post(p, 20n * USDC), post(p, 20n * USDC)]);
      expect(both.map((r) => r.status)).toEqual([201, 201]);
      expect(both.map((r) => r.body.status).sort()).toEqual(['AWAITING_FUNDING', 'OPEN']);
      const open = both.find((r) => r.body.status === 'OPEN')!;
      expect(open.body.funding).toMatchObject({ status: 'funded' });
      const waiting = both.find((r) => r.body.status === 'AWAITING_FUNDING')!;
      expect(waiting.body.funding.reason).toBe('mandate-per-day');
      // On-chain, one task for the two; the grant counted only it; the UTC day is used up exactly.
      expect(await mandateCreated(fromBlock, p.wallet.address)).toHaveLength(1);
      expect(await fundedLast24h(p)).toBe(String(50n * USDC));
      expect((await readAllowance(p)).body.fundedToday).toBe(String(50n * USDC));
    },
  );

  test("a post whose chain reads straddle another's funding counts it: it waits naming mandate-per-day", async () => {
    const p = await person(500n * USDC, 1000n * USDC);
    await setAllowance(p, await termsOf({ perMission: 20n * USDC, perDay: 20n * USDC, total: 200n * USDC }));
    // The later post reads today's use (fundedOn) before the earlier one is mined, and its allowance read is
    // held until that funding is done: its standing says 0 used today, the database no relay in flight. Its
    // reads are the only ones in flight when seen; then nothing more is held, so the earlier post runs freely.
    const fundedOnCall = toFunctionSelector('function fundedOn(address,uint256)');
    const allowanceCall = toFunctionSelector('function allowance(address,address)');
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let readBoth!: () => void;
    const bothRead = new Promise<void>((resolve) => {
      readBoth = resolve;
    });
    let holding = true;
    let sawFundedOn = false;
    let sawAllowance = false;
    const proxy = await startRpcProxy(workerRpcUrl(), (method, params) => {
      if (method !== 'eth_call' || !holding) return undefined;
      const data = String((params[0] as { data?: string }).data ?? '');
      if (data.startsWith(fundedOnCall)) sawFundedOn = true;
      const held = data.startsWith(allowanceCall);
      if (held) sawAllowance = true;
      if (sawFundedOn && sawAllowance) {
        holding = false;
        readBoth();
      }
      return held ? { after: released } : undefined;
    });
    setEnv({ RPC_URL: proxy.url });
    try {
      const fromBlock = (await publicClient().getBlockNumber()) + 1n;
      const later = post(p, 20n * USDC);
      await bothRead;
      const earlier = await post(p, 20n * USDC);
      expect(earlier.body).toMatchObject({ status: 'OPEN', funding: { status: 'funded' } });
      release();
      const answer = await later;
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body).toMatchObject({ status: 'AWAITING_FUNDING', funding: { reason: 'mandate-per-day' } });
      expect(await mandateCreated(fromBlock, p.wallet.address)).toHaveLength(1);
    } finally {
      release();
      setEnv({ RPC_URL: workerRpcUrl() });
      await proxy.close();
    }
  });

  test(
    'the chain refusing createTaskFor (a node behind the head said nothing was funded today) ends the relay ' +
      'failed: 201, the mission waiting',
    async () => {
      const p = await person(500n * USDC, 1000n * USDC);
      await setAllowance(p, await termsOf({ perMission: 20n * USDC, perDay: 20n * USDC, total: 200n * USDC }));
      expect((await post(p, 20n * USDC)).body).toMatchObject({ status: 'OPEN', funding: { status: 'funded' } });
      // The node the server reads lags: fundedOn answers 0, so the server decides to fund; the escrow says
      // OverPerDay — on anvil a message carrying the error's raw uint256 arguments, NUL bytes included.
      const fundedOnCall = toFunctionSelector('function fundedOn(address,uint256)');
      const proxy = await startRpcProxy(workerRpcUrl(), (method, params) =>
        method === 'eth_call' && String((params[0] as { data?: string }).data ?? '').startsWith(fundedOnCall)
          ? { result: `0x${'0'.repeat(64)}` }
          : undefined,
      );
      setEnv({ RPC_URL: proxy.url });
      try {
        const refused = await post(p, 20n * USDC);
        expect(refused.status, JSON.stringify(refused.body)).toBe(201);
        expect(refused.body).toMatchObject({ status: 'AWAITING_FUNDING', funding: { status: 'failed' } });
        expect(refused.body.funding.error).toMatch(/reverted/);
        const [row] = await (await getDb())
          .select()
          .from(missionFundings)
          .where(eq(missionFundings.missionId, refused.body.id));
        expect(row).toMatchObject({ via: 'MANDATE', status: 'FAILED', txHash: null });
        expect(row!.lastError).toMatch(/reverted/);
        // Nothing left for it (the node's estimate refused it): the wallet's one task is the first post's.
        expect(await mandateCreated(0n, p.wallet.address)).toHaveLength(1);
      } finally {
        setEnv({ RPC_URL: workerRpcUrl() });
        await proxy.close();
      }
    },
  );
});
