// Post and pay (docs/api.md#post-and-pay): a mission posted without its task waits AWAITING_FUNDING,
// off the board and closed to everyone; the poster's one EIP-3009 signature (real viem signatures,
// real anvil, escrow v4) is checked, recorded and relayed once, and the mission opens with its task.
import { and, eq, inArray, sum } from 'drizzle-orm';
import { type Hex, type PrivateKeyAccount, parseEventLogs, toFunctionSelector } from 'viem';
import { inject, describe, expect, test } from 'vitest';
import { GET as fundingGet, POST as fundingPost } from '@/app/api/missions/[id]/funding/route';
import { GET as listRoute, POST as createRoute } from '@/app/api/missions/route';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { GET as accountStats } from '@/app/api/account/stats/route';
import { GET as clientRecord } from '@/app/api/clients/[address]/route';
import { mockUsdcArtifact, taskEscrowV4Artifact } from '@/lib/chain/artifacts';
import { getDb } from '@/lib/db/client';
import { missionFiles, missionFundings, missions } from '@/lib/db/schema';
import { MAX_LAPSE_FAILURES } from '@/lib/funding/sweep';
import { fund, publicClient, walletOf } from '../support/chain';
import { setEnv, useTestEnvironment } from '../support/environment';
import { isolatedDatabase } from '../support/isolated-database';
import { call } from '../support/http';
import { act, blobExists, eventsOf, getMission, missionCountOf, missionInput, newAgent } from '../support/missions';
import { fundWithOwnTask } from '../support/funding';
import { png, pngOfSize, sha256, upload } from '../support/multipart';
import { POST as verify } from '@/app/api/auth/verify/route';
import { deployTestContract, newDeployer } from '../support/test-contracts';
import { newWallet, requestNonce, signIn, siweMessage } from '../support/wallets';
import { workerRpcUrl } from '../support/ports';
import { startRpcProxy } from '../support/rpc-proxy';

// The global quota of unfunded attachments counts every poster's: on PostgreSQL this file has a database of
// its own, so other files' unfunded missions are not counted against it meanwhile.
useTestEnvironment({ ...isolatedDatabase(), WRITE_RATE_LIMIT_PER_MINUTE: '100000', MINT_WAIT_MS: '2000' });

const REWARD = 7_000_000n;
const kvPrefix = process.env.KV_PREFIX;
const contracts = () => inject('contracts') as { escrow: Hex; rewardToken: Hex };
const sweep = () =>
  call(sweepRoute, { method: 'POST', headers: { authorization: `Bearer ${process.env.CRON_SECRET}` } });

/** Mints test USDC to `to` from a throwaway funded wallet: the poster itself holds no ETH. */
async function mintUsdc(to: Hex, amount: bigint) {
  const minter = newWallet();
  await fund(minter.address);
  const hash = await walletOf(minter).writeContract({
    address: contracts().rewardToken,
    abi: mockUsdcArtifact.abi,
    functionName: 'mint',
    args: [to, amount],
  });
  await publicClient().waitForTransactionReceipt({ hash });
}

/** A poster holding the reward in USDC and no ETH, and its AWAITING_FUNDING mission. */
async function unfundedMission(reward = REWARD, holding = reward) {
  const wallet = newWallet();
  if (holding > 0n) await mintUsdc(wallet.address, holding);
  const { token, user } = await signIn(wallet);
  const created = await call(createRoute, { token, body: missionInput({ reward: reward.toString() }) });
  expect(created.status).toBe(201);
  return { wallet, token, userId: user.id as string, id: created.body.id as string, created: created.body };
}

const readFunding = (token: string, id: string) => call(fundingGet, { token, params: { id } });
const postFunding = (token: string, id: string, body: unknown) => call(fundingPost, { token, params: { id }, body });

/** The typed data as viem signs it: the JSON's decimal strings back to bigints. */
function signable(typedData: {
  domain: Record<string, unknown>;
  types: Record<string, unknown>;
  message: Record<string, string>;
}) {
  const m = typedData.message;
  return {
    domain: typedData.domain,
    types: typedData.types,
    primaryType: 'ReceiveWithAuthorization',
    message: { ...m, value: BigInt(m.value!), validAfter: BigInt(m.validAfter!), validBefore: BigInt(m.validBefore!) },
  } as never;
}

async function signFunding(
  signer: PrivateKeyAccount,
  token: string,
  id: string,
  edit: (message: Record<string, unknown>) => void = () => {},
) {
  const funding = (await readFunding(token, id)).body;
  const data = signable(funding.typedData) as { message: Record<string, unknown> };
  edit(data.message);
  return signer.signTypedData(data as never);
}

const relayRow = async (id: string) =>
  (await (await getDb()).select().from(missionFundings).where(eq(missionFundings.missionId, id)))[0];
const missionStatus = async (id: string) =>
  (await (await getDb()).select({ status: missions.status }).from(missions).where(eq(missions.id, id)))[0]?.status;
const tasksCreated = async (fromBlock: bigint) =>
  parseEventLogs({
    abi: taskEscrowV4Artifact.abi,
    eventName: 'TaskCreated',
    logs: await publicClient().getLogs({ address: contracts().escrow, fromBlock }),
  });

/** The poster's EIP-3009 CancelAuthorization of the funding's nonce, signed for the token's domain. */
const signCancellation = (
  wallet: PrivateKeyAccount,
  typedData: { domain: Record<string, unknown>; message: { nonce: Hex } },
) =>
  wallet.signTypedData({
    domain: typedData.domain,
    types: {
      CancelAuthorization: [
        { name: 'authorizer', type: 'address' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'CancelAuthorization',
    message: { authorizer: wallet.address, nonce: typedData.message.nonce },
  });

/**
 * The wallet fallback's own approve + createTask with the terms of the GET (or, for a test of what is
 * refused, some of them changed); the new task's id.
 */
async function ownTask(
  wallet: PrivateKeyAccount,
  token: string,
  id: string,
  change: { amount?: bigint; ref?: Hex; expiresAt?: bigint } = {},
): Promise<number> {
  const read = (await readFunding(token, id)).body;
  const terms = {
    ...read,
    amount: (change.amount ?? BigInt(read.amount)).toString(),
    ref: change.ref ?? read.ref,
    expiresAt: (change.expiresAt ?? BigInt(read.expiresAt)).toString(),
  };
  await fund(wallet.address);
  const w = walletOf(wallet);
  await publicClient().waitForTransactionReceipt({
    hash: await w.writeContract({
      address: terms.token,
      abi: mockUsdcArtifact.abi,
      functionName: 'approve',
      args: [terms.escrow, BigInt(terms.amount)],
    }),
  });
  const receipt = await publicClient().waitForTransactionReceipt({
    hash: await w.writeContract({
      address: terms.escrow,
      abi: taskEscrowV4Artifact.abi,
      functionName: 'createTask',
      args: [BigInt(terms.amount), terms.ref, BigInt(terms.expiresAt)],
    }),
  });
  const [created] = parseEventLogs({ abi: taskEscrowV4Artifact.abi, eventName: 'TaskCreated', logs: receipt.logs });
  return Number(created!.args.taskId);
}

const linkedTask = async (id: string) =>
  (await (await getDb()).select({ task: missions.onChainTaskId }).from(missions).where(eq(missions.id, id)))[0]?.task;

describe('a mission posted without its task', () => {
  test('is AWAITING_FUNDING with its funding link, off the board and closed to others', async () => {
    const { token, id, created } = await unfundedMission();
    expect(created.status).toBe('AWAITING_FUNDING');
    expect(created.onChainTaskId).toBeNull();
    expect(created.funding.url).toMatch(new RegExp(`/missions/${id}/fund$`));
    expect(Date.parse(created.funding.expiresAt) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const board = await call(listRoute, { path: '/api/missions?sort=created&limit=100' });
    expect(board.status).toBe(200);
    expect(board.body.items.map((m: { id: string }) => m.id)).not.toContain(id);
    expect(
      (await (await getDb()).select({ listing: missions.listing }).from(missions).where(eq(missions.id, id)))[0]!
        .listing,
    ).toBeNull();
    const mine = await call(listRoute, { token, path: '/api/missions?mine=client' });
    expect(mine.body.items.map((m: { id: string }) => m.id)).toContain(id);
    const agent = await newAgent();
    expect((await getMission(agent, id)).status).toBe(404);
    expect((await act('accept', agent, id)).status).toBe(404);
    expect((await readFunding(agent.token, id)).status).toBe(404);
    // The poster cannot act on it either until it is funded.
    expect((await act('bump', { token, id: '', address: '' }, id, {})).status).toBe(409);
    // Counted as the poster's, but nothing of it is held in escrow yet.
    const stats = await call(accountStats, { token });
    expect(stats.body.asClient).toMatchObject({ byStatus: { AWAITING_FUNDING: 1 }, escrowed: '0' });
  });

  test('one signature funds it: relayed, mined, the mission OPEN with its task, the poster paying no gas', async () => {
    const { wallet, token, id } = await unfundedMission();
    const before = await readFunding(token, id);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      status: 'awaiting_signature',
      amount: REWARD.toString(),
      escrow: contracts().escrow.toLowerCase(),
      relayAvailable: true,
    });
    expect(before.body.typedData.message).toMatchObject({
      from: wallet.address.toLowerCase(),
      to: contracts().escrow.toLowerCase(),
      value: REWARD.toString(),
      validAfter: '0',
    });
    const block = await publicClient().getBlockNumber();
    const signature = await signFunding(wallet, token, id);
    const posted = await postFunding(token, id, { signature });
    expect(posted.status).toBe(202);
    const after = (await readFunding(token, id)).body;
    expect(after).toMatchObject({ status: 'funded', txHash: expect.stringMatching(/^0x/) });
    const mission = (await getMission({ token, id: '', address: '' }, id)).body;
    expect(mission.status).toBe('OPEN');
    const [created] = (await tasksCreated(block)).filter((e) => e.args.ref === before.body.ref);
    expect(created!.args).toMatchObject({ client: wallet.address, reward: REWARD });
    expect(mission.onChainTaskId).toBe(Number(created!.args.taskId));
    expect(await publicClient().getBalance({ address: wallet.address })).toBe(0n);
    expect((await eventsOf(id)).map((e: { action: string }) => e.action)).toEqual(['create', 'funded']);
    // On the board now, and open to agents.
    const agent = await newAgent();
    expect((await act('accept', agent, id)).status).toBe(200);
    // And a second POST changes nothing.
    expect((await postFunding(token, id, { signature })).status).toBe(400);
  });

  test("reads of the funding cost the chain nothing for the nonce (the contract's own), and are limited", async () => {
    const { token, id } = await unfundedMission();
    const first = (await readFunding(token, id)).body;
    // The nonce the GET computed is the one the escrow derives from the same terms.
    const m = first.typedData.message;
    const onChain = await publicClient().readContract({
      address: contracts().escrow,
      abi: taskEscrowV4Artifact.abi,
      functionName: 'fundingNonce',
      args: [m.from, BigInt(m.value), first.ref, BigInt(first.expiresAt)],
    });
    expect(m.nonce).toBe(onChain);
    const selector = toFunctionSelector('fundingNonce(address,uint256,bytes32,uint64)');
    const calls: string[] = [];
    const proxy = await startRpcProxy(workerRpcUrl(), (method, params) => {
      const data = (params[0] as { data?: string } | undefined)?.data ?? '';
      calls.push(data.startsWith(selector) ? 'fundingNonce' : method);
      return undefined;
    });
    setEnv({ RPC_URL: proxy.url, FUNDING_READ_RATE_LIMIT_PER_MINUTE: '40' });
    try {
      // The first read above counted too: 39 more pass, the next is 429.
      const reads = [];
      for (let i = 0; i < 39; i++) reads.push(await readFunding(token, id));
      for (const read of reads) expect(read.status).toBe(200);
      expect(reads.every((r) => r.body.typedData.message.nonce === m.nonce)).toBe(true);
      expect(calls.filter((c) => c === 'fundingNonce')).toHaveLength(0);
      expect(calls.length).toBeLessThanOrEqual(1);
      const limited = await readFunding(token, id);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      setEnv({ RPC_URL: workerRpcUrl(), FUNDING_READ_RATE_LIMIT_PER_MINUTE: undefined });
      await proxy.close();
    }
  });

  test('a signature by another wallet, or for another amount or terms, is 400 and records nothing', async () => {
    const { wallet, token, id } = await unfundedMission();
    const stranger = await signFunding(newWallet(), token, id);
    const other = await postFunding(token, id, { signature: stranger });
    expect(other.status).toBe(400);
    expect(other.body.details[0]).toMatch(/^signature:/);
    const cheaper = await signFunding(wallet, token, id, (m) => void (m.value = 1n));
    expect((await postFunding(token, id, { signature: cheaper })).status).toBe(400);
    const longer = await signFunding(wallet, token, id, (m) => void (m.validBefore = (m.validBefore as bigint) + 1n));
    expect((await postFunding(token, id, { signature: longer })).status).toBe(400);
    expect(await relayRow(id)).toBeUndefined();
    expect(await missionStatus(id)).toBe('AWAITING_FUNDING');
  });

  test('expired: a mission past its 24 h is refused, and the sweep deletes it', async () => {
    const { wallet, token, id } = await unfundedMission();
    const signature = await signFunding(wallet, token, id);
    await (await getDb())
      .update(missions)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(missions.id, id));
    const late = await postFunding(token, id, { signature });
    expect(late.status).toBe(400);
    expect(late.body.details[0]).toMatch(/expired/);
    expect((await sweep()).status).toBe(200);
    expect(await missionStatus(id)).toBeUndefined();
  });

  test('the lapse deletes the bytes of its files that nothing else uses, and keeps shared ones', async () => {
    const mine = { filename: 'mine.png', contentType: 'image/png', content: png() };
    const shared = { filename: 'shared.png', contentType: 'image/png', content: png() };
    const posters: string[] = [];
    const post = async (files: (typeof mine)[]) => {
      const poster = newWallet();
      posters.push(poster.address.toLowerCase());
      const { token } = await signIn(poster);
      const { tags, ...fields } = missionInput();
      const created = await upload(createRoute, { token, fields: { ...fields, tags: tags.join(',') }, files });
      expect(created.body.status).toBe('AWAITING_FUNDING');
      return created.body.id as string;
    };
    const lapsing = await post([mine, shared]);
    const other = await post([shared]);
    await (await getDb())
      .update(missions)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(missions.id, lapsing));
    expect((await sweep()).status).toBe(200);
    expect(await missionStatus(lapsing)).toBeUndefined();
    expect(await blobExists(sha256(mine.content))).toBe(false);
    expect(await blobExists(sha256(shared.content))).toBe(true);
    expect(await missionStatus(other)).toBe('AWAITING_FUNDING');
    // docs/api.md#client-record: nothing of the mission stays but the count on its client's record.
    const records = await Promise.all(posters.map((address) => call(clientRecord, { params: { address } })));
    expect(records.map((r) => [r.body.record.unfundedLapsed, r.body.record.funded])).toEqual([
      [1, 0],
      [0, 0],
    ]);
  });

  test('lapses the chain cannot decide fill no batch: the others lapse, and they end given up', async () => {
    // More undecidable lapses than a batch holds (50), all older than one the chain answers.
    setEnv({ MAX_UNFUNDED_MISSIONS: '100' });
    const stuck: string[] = [];
    try {
      // Three posters, as posting is limited per account and hour.
      for (let poster = 0; poster < 3; poster++) {
        const { token } = await signIn(newWallet());
        for (let i = 0; i < 17; i++) {
          const created = await call(createRoute, { token, body: missionInput({ reward: REWARD.toString() }) });
          expect(created.status).toBe(201);
          stuck.push(created.body.id as string);
        }
      }
    } finally {
      setEnv({ MAX_UNFUNDED_MISSIONS: undefined });
    }
    const { token: otherToken, id: answered } = await unfundedMission();
    const goodNonce = (await readFunding(otherToken, answered)).body.typedData.message.nonce.slice(2) as string;
    const db = await getDb();
    await db
      .update(missions)
      .set({ createdAt: new Date(Date.now() - 26 * 3_600_000) })
      .where(inArray(missions.id, stuck));
    await db
      .update(missions)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(missions.id, answered));
    // The token refuses to say whether any authorization but the answered mission's was used.
    const selector = toFunctionSelector('authorizationState(address,bytes32)');
    const proxy = await startRpcProxy(workerRpcUrl(), (method, params) => {
      const data = (params[0] as { data?: string; input?: string } | undefined)?.data ?? '';
      if (method === 'eth_call' && data.startsWith(selector) && !data.includes(goodNonce))
        return { error: { code: -32602, message: 'query refused' } };
      return undefined;
    });
    setEnv({ RPC_URL: proxy.url });
    const failures = async () =>
      (await db.select({ n: missions.lapseFailures }).from(missions).where(inArray(missions.id, stuck))).map(
        (r) => r.n,
      );
    try {
      expect((await sweep()).status).toBe(200);
      expect((await sweep()).status).toBe(200);
      expect(await missionStatus(answered)).toBeUndefined();
      // Each is tried again behind the others until it was tried MAX_LAPSE_FAILURES times.
      for (let i = 0; i < 25 && (await failures()).some((n) => n < MAX_LAPSE_FAILURES); i++) await sweep();
      // Each was tried at most MAX_LAPSE_FAILURES times, then left alone: still there, unfunded, out of the batch.
      expect(new Set(await failures())).toEqual(new Set([MAX_LAPSE_FAILURES]));
      await sweep();
      expect(new Set(await failures())).toEqual(new Set([MAX_LAPSE_FAILURES]));
      for (const id of stuck) expect(await missionStatus(id)).toBe('AWAITING_FUNDING');
    } finally {
      setEnv({ RPC_URL: workerRpcUrl() });
      await proxy.close();
    }
  });

  test('a task funded outside the relay is found past thousands of blocks, asking 2,000 at a time', async () => {
    const { wallet, token, id } = await unfundedMission();
    const signature = await signFunding(wallet, token, id);
    const funding = (await readFunding(token, id)).body;
    // Five thousand blocks on (same timestamp: the chain's clock does not move for other tests), a
    // thousand a request: one request of five thousand outlasts the client's timeout on a loaded host...
    for (let batch = 0; batch < 5; batch++) {
      await publicClient().request({ method: 'anvil_mine', params: ['0x3e8', '0x0'] } as never);
    }
    // ...someone holding the signature submits it straight to the escrow; no relay row records a block.
    const stranger = newWallet();
    await fund(stranger.address);
    const m = funding.typedData.message;
    const hash = await walletOf(stranger).writeContract({
      address: funding.escrow,
      abi: taskEscrowV4Artifact.abi,
      functionName: 'createTaskWithAuthorization',
      args: [
        m.from,
        BigInt(m.value),
        funding.ref,
        BigInt(funding.expiresAt),
        0n,
        BigInt(m.validBefore),
        m.nonce,
        signature,
      ],
    });
    await publicClient().waitForTransactionReceipt({ hash });
    await (await getDb())
      .update(missions)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(missions.id, id));
    // ...behind an RPC that refuses eth_getLogs over more than 2,000 blocks, as public Base RPCs do.
    const ranges: number[] = [];
    const proxy = await startRpcProxy(workerRpcUrl(), (method, params) => {
      if (method !== 'eth_getLogs') return undefined;
      const { fromBlock, toBlock } = params[0] as { fromBlock?: string; toBlock?: string };
      const span =
        toBlock?.startsWith('0x') && fromBlock?.startsWith('0x') ? Number(toBlock) - Number(fromBlock) + 1 : Infinity;
      ranges.push(span);
      return span > 2_000 ? { error: { code: -32602, message: 'block range too large' } } : undefined;
    });
    setEnv({ RPC_URL: proxy.url });
    try {
      expect((await sweep()).status).toBe(200);
    } finally {
      setEnv({ RPC_URL: workerRpcUrl() });
      await proxy.close();
    }
    // The lapse found the task instead of deleting the mission, and the mission opened with it.
    expect(await missionStatus(id)).toBe('OPEN');
    expect(ranges.length).toBeGreaterThan(1);
    expect(Math.max(...ranges)).toBeLessThanOrEqual(2_000);
  });

  test('a task with the ref but less money, the authorization cancelled: the mission lapses, never opens', async () => {
    const { wallet, token, id } = await unfundedMission();
    await fund(wallet.address);
    const funding = (await readFunding(token, id)).body;
    const poster = walletOf(wallet);
    const send = async (request: Parameters<typeof poster.writeContract>[0]) =>
      publicClient().waitForTransactionReceipt({ hash: await poster.writeContract(request) });
    // A ref is no secret: the poster opens a 1-unit task carrying it...
    const usdc = { address: contracts().rewardToken, abi: mockUsdcArtifact.abi } as const;
    await send({ ...usdc, functionName: 'approve', args: [funding.escrow, 1n] } as never);
    await send({
      address: funding.escrow,
      abi: taskEscrowV4Artifact.abi,
      functionName: 'createTask',
      args: [1n, funding.ref, BigInt(funding.expiresAt)],
    } as never);
    // ...and cancels the authorization, so the token calls it used.
    const cancel = await signCancellation(wallet, funding.typedData);
    await send({
      ...usdc,
      functionName: 'cancelAuthorization',
      args: [wallet.address, funding.typedData.message.nonce, cancel],
    } as never);
    await (await getDb())
      .update(missions)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(missions.id, id));
    expect((await sweep()).status).toBe(200);
    expect(await missionStatus(id)).toBeUndefined();
  });

  test('two concurrent POSTs of the signature send one transaction', async () => {
    const { wallet, token, id } = await unfundedMission();
    const signature = await signFunding(wallet, token, id);
    const block = await publicClient().getBlockNumber();
    const ref = (await readFunding(token, id)).body.ref;
    const answers = await Promise.all([postFunding(token, id, { signature }), postFunding(token, id, { signature })]);
    for (const answer of answers) expect([202, 409, 400]).toContain(answer.status);
    expect(answers.some((a) => a.status === 202)).toBe(true);
    await sweep();
    expect(await missionStatus(id)).toBe('OPEN');
    expect((await tasksCreated(block)).filter((e) => e.args.ref === ref)).toHaveLength(1);
  });

  test('an RPC outage after the relay is recorded delays it; the sweep completes it once', async () => {
    const { wallet, token, id } = await unfundedMission();
    const signature = await signFunding(wallet, token, id);
    const block = await publicClient().getBlockNumber();
    const ref = (await readFunding(token, id)).body.ref;
    // Recorded with its hash, then the node refuses the broadcast as an overloaded provider would.
    const proxy = await startRpcProxy(workerRpcUrl(), (method) =>
      method === 'eth_sendRawTransaction' ? { httpStatus: 503 } : undefined,
    );
    setEnv({ RPC_URL: proxy.url });
    try {
      expect((await postFunding(token, id, { signature })).status).toBe(202);
      expect((await readFunding(token, id)).body.status).toBe('relaying');
    } finally {
      setEnv({ RPC_URL: workerRpcUrl() });
      await proxy.close();
    }
    expect(await relayRow(id)).toMatchObject({ status: 'RELAYING' });
    expect(await missionStatus(id)).toBe('AWAITING_FUNDING');
    await sweep();
    await sweep();
    expect(await missionStatus(id)).toBe('OPEN');
    expect(await relayRow(id)).toMatchObject({ status: 'MINED' });
    expect((await tasksCreated(block)).filter((e) => e.args.ref === ref)).toHaveLength(1);
  });

  test('beyond the relay budget: 429 naming the wallet fallback, which then funds it (200)', async () => {
    const { wallet, token, id } = await unfundedMission();
    setEnv({ RELAY_BUDGET_PER_HOUR: '0' });
    try {
      expect((await readFunding(token, id)).body.relayAvailable).toBe(false);
      const signature = await signFunding(wallet, token, id);
      const refused = await postFunding(token, id, { signature });
      expect(refused.status).toBe(429);
      expect(refused.body.details[0]).toMatch(/createTask/);
    } finally {
      setEnv({ RELAY_BUDGET_PER_HOUR: undefined });
    }
    // The fallback: the wallet's own approve + createTask with the same ref and expiresAt.
    const { answer: funded } = await fundWithOwnTask(wallet, token, id);
    expect(funded.status).toBe(200);
    expect(funded.body.status).toBe('funded');
    expect(await missionStatus(id)).toBe('OPEN');
  });

  test("a contract wallet (ERC-1271) funds it with its owner's signature of the same typed data", async () => {
    const owner = newWallet();
    const wallet = await deployTestContract(await newDeployer(), 'OwnedWallet', [owner.address]);
    await mintUsdc(wallet, REWARD);
    const message = siweMessage(newWallet(), await requestNonce(wallet), { address: wallet });
    const signedIn = await call(verify, { body: { message, signature: await owner.signMessage({ message }) } });
    expect(signedIn.status).toBe(200);
    const token = signedIn.body.token as string;
    const created = await call(createRoute, { token, body: missionInput({ reward: REWARD.toString() }) });
    expect(created.body.status).toBe('AWAITING_FUNDING');
    const id = created.body.id as string;
    const signature = await signFunding(owner, token, id);
    expect((await postFunding(token, id, { signature })).status).toBe(202);
    expect(await missionStatus(id)).toBe('OPEN');
    // Its owner's key alone is not the wallet: a stranger's signature is still refused elsewhere (above).
  });

  test('replayed: an authorization already used on-chain is 400 and changes nothing', async () => {
    const { wallet, token, id } = await unfundedMission();
    const signature = await signFunding(wallet, token, id);
    const funding = (await readFunding(token, id)).body;
    // Someone holding the signature submits it straight to the escrow: the token marks it used.
    const stranger = newWallet();
    await fund(stranger.address);
    const m = funding.typedData.message;
    const hash = await walletOf(stranger).writeContract({
      address: funding.escrow,
      abi: taskEscrowV4Artifact.abi,
      functionName: 'createTaskWithAuthorization',
      args: [
        m.from,
        BigInt(m.value),
        funding.ref,
        BigInt(funding.expiresAt),
        0n,
        BigInt(m.validBefore),
        m.nonce,
        signature,
      ],
    });
    await publicClient().waitForTransactionReceipt({ hash });
    const replay = await postFunding(token, id, { signature });
    expect(replay.status).toBe(400);
    expect(replay.body.details[0]).toMatch(/already used/);
    expect(await relayRow(id)).toBeUndefined();
  });

  test('a wallet short of the reward is 400 saying by how much, records nothing; topped up, it funds', async () => {
    const { wallet, token, id } = await unfundedMission(REWARD, REWARD / 2n);
    const signature = await signFunding(wallet, token, id);
    const refused = await postFunding(token, id, { signature });
    expect(refused.status).toBe(400);
    expect(refused.body.details[0]).toMatch(new RegExp(`^balance: .* short by ${REWARD / 2n} `));
    expect(await relayRow(id)).toBeUndefined();
    await mintUsdc(wallet.address, REWARD / 2n);
    expect((await postFunding(token, id, { signature })).body.status).toBe('funded');
    expect(await missionStatus(id)).toBe('OPEN');
  });

  test('a call that would revert is 400 with the revert reason, before anything is charged', async () => {
    const { wallet, token, id } = await unfundedMission();
    const funding = (await readFunding(token, id)).body;
    const signature = await signFunding(wallet, token, id);
    // The poster cancels the authorization on-chain after signing it...
    await fund(wallet.address);
    const cancel = await signCancellation(wallet, funding.typedData);
    await publicClient().waitForTransactionReceipt({
      hash: await walletOf(wallet).writeContract({
        address: contracts().rewardToken,
        abi: mockUsdcArtifact.abi,
        functionName: 'cancelAuthorization',
        args: [wallet.address, funding.typedData.message.nonce, cancel],
      }),
    });
    // ...behind a node whose authorizationState still says unused (a replica behind the head): only
    // the simulation of the exact call stands between it and the relayer's budget.
    const selector = toFunctionSelector('authorizationState(address,bytes32)');
    const proxy = await startRpcProxy(workerRpcUrl(), (method, params) => {
      const data = (params[0] as { data?: string } | undefined)?.data ?? '';
      return method === 'eth_call' && data.startsWith(selector) ? { result: `0x${'0'.repeat(64)}` } : undefined;
    });
    setEnv({ RPC_URL: proxy.url, KV_PREFIX: `relay:${crypto.randomUUID()}:`, RELAY_BUDGET_PER_HOUR: '1' });
    try {
      const refused = await postFunding(token, id, { signature });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.details[0]).toMatch(
        /^signature: the relayed createTaskWithAuthorization would revert: .*used or canceled/,
      );
      expect(await relayRow(id)).toBeUndefined();
      // Nothing was charged: the budget of one is whole.
      expect((await readFunding(token, id)).body.relayAvailable).toBe(true);
    } finally {
      setEnv({ RPC_URL: workerRpcUrl(), KV_PREFIX: kvPrefix, RELAY_BUDGET_PER_HOUR: undefined });
      await proxy.close();
    }
  });

  test('wallets holding nothing never spend the hourly budget: an honest poster then funds (202)', async () => {
    // A fresh budget of two broadcasts an hour, counted from now (a KV namespace of this test's own).
    setEnv({ KV_PREFIX: `relay:${crypto.randomUUID()}:`, RELAY_BUDGET_PER_HOUR: '2' });
    try {
      const block = await publicClient().getBlockNumber();
      for (let i = 0; i < 3; i++) {
        const empty = await unfundedMission(REWARD, 0n);
        const signature = await signFunding(empty.wallet, empty.token, empty.id);
        // The same one again and again: each is refused, none is charged.
        for (let again = 0; again < 2; again++) {
          const refused = await postFunding(empty.token, empty.id, { signature });
          expect(refused.status).toBe(400);
          expect(refused.body.details[0]).toMatch(new RegExp(`^balance: .* holds 0 .* short by ${REWARD} `));
        }
        expect(await relayRow(empty.id)).toBeUndefined();
      }
      const honest = await unfundedMission();
      expect((await readFunding(honest.token, honest.id)).body.relayAvailable).toBe(true);
      const funded = await postFunding(honest.token, honest.id, {
        signature: await signFunding(honest.wallet, honest.token, honest.id),
      });
      expect(funded.status).toBe(202);
      expect(funded.body.status).toBe('funded');
      expect(await tasksCreated(block)).toHaveLength(1);
    } finally {
      setEnv({ KV_PREFIX: kvPrefix, RELAY_BUDGET_PER_HOUR: undefined });
    }
  });

  test('the hourly budget counts broadcasts: two posters race for the last one; one is sent, one is 429', async () => {
    setEnv({ KV_PREFIX: `relay:${crypto.randomUUID()}:`, RELAY_BUDGET_PER_HOUR: '1' });
    try {
      const block = await publicClient().getBlockNumber();
      const posters = [await unfundedMission(), await unfundedMission()];
      const signatures = await Promise.all(posters.map((p) => signFunding(p.wallet, p.token, p.id)));
      const answers = await Promise.all(
        posters.map((p, i) => postFunding(p.token, p.id, { signature: signatures[i] })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([202, 429]);
      const lost = answers.find((a) => a.status === 429)!;
      expect(lost.body.details[0]).toMatch(/budget for this hour is used up.*createTask/);
      expect(lost.headers.get('retry-after')).toMatch(/^\d+$/);
      // These two posters' tasks only: a relay an earlier test left in flight may be mined meanwhile.
      const theirs = new Set(posters.map((p) => p.wallet.address.toLowerCase()));
      expect((await tasksCreated(block)).filter((e) => theirs.has(e.args.client.toLowerCase()))).toHaveLength(1);
      // The loser funds from its wallet, as the 429 says.
      const loser = posters[answers.indexOf(lost)]!;
      const funded = await postFunding(loser.token, loser.id, {
        onChainTaskId: await ownTask(loser.wallet, loser.token, loser.id),
      });
      expect(funded.status).toBe(200);
    } finally {
      setEnv({ KV_PREFIX: kvPrefix, RELAY_BUDGET_PER_HOUR: undefined });
    }
  });

  test("a relay that ends without a send gives the poster's daily unit back: the eleventh still funds", async () => {
    setEnv({ KV_PREFIX: `relay:${crypto.randomUUID()}:` });
    const { wallet, token, id } = await unfundedMission();
    const signature = await signFunding(wallet, token, id);
    // Checked and simulated, then refused when the node estimates it for the send: nothing leaves.
    const proxy = await startRpcProxy(workerRpcUrl(), (method) =>
      method === 'eth_fillTransaction' || method === 'eth_estimateGas'
        ? { error: { code: 3, message: 'execution reverted: the node says no' } }
        : undefined,
    );
    setEnv({ RPC_URL: proxy.url });
    try {
      // More than the ten a day a poster has.
      for (let i = 0; i < 12; i++) {
        const failed = await postFunding(token, id, { signature });
        expect(failed.status, JSON.stringify(failed.body)).toBe(202);
        expect(failed.body).toMatchObject({ status: 'failed', reason: expect.stringMatching(/says no/) });
      }
    } finally {
      setEnv({ RPC_URL: workerRpcUrl() });
      await proxy.close();
    }
    try {
      const funded = await postFunding(token, id, { signature });
      expect(funded.status, JSON.stringify(funded.body)).toBe(202);
      expect(funded.body.status).toBe('funded');
    } finally {
      setEnv({ KV_PREFIX: kvPrefix });
    }
  });

  test('security: the fallback links only the task the GET described: its amount, ref and expiresAt', async () => {
    // The reproduced attack: a one-unit mission linked to a 1,000 USDC task of the poster's, whose
    // release would pay the whole task on an approval judged at one unit.
    const { wallet, token, id } = await unfundedMission(1n, 1_000_000_000n + 3n);
    const read = (await readFunding(token, id)).body;
    const wrong = [
      [{ amount: 1_000_000_000n }, /holds 1000000000, more than the reward 1/],
      [{ ref: `0x${'ab'.repeat(32)}` as Hex }, /ref/],
      [{ expiresAt: BigInt(read.expiresAt) + 1n }, /expires at/],
    ] as const;
    for (const [change, detail] of wrong) {
      const task = await ownTask(wallet, token, id, change);
      const refused = await postFunding(token, id, { onChainTaskId: task });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.details.join(' ')).toMatch(detail);
      expect(await missionStatus(id)).toBe('AWAITING_FUNDING');
    }
    const right = await ownTask(wallet, token, id);
    expect((await postFunding(token, id, { onChainTaskId: right })).status).toBe(200);
    expect(await linkedTask(id)).toBe(right);
  });

  test('the fallback losing to a relay in flight or done is 409; the winning task again is 200', async () => {
    const { wallet, token, id } = await unfundedMission(REWARD, 2n * REWARD);
    const signature = await signFunding(wallet, token, id);
    const mine = await ownTask(wallet, token, id);
    // The relay is recorded, its broadcast refused: in flight (a read would carry it on, so none here).
    const proxy = await startRpcProxy(workerRpcUrl(), (method) =>
      method === 'eth_sendRawTransaction' ? { httpStatus: 503 } : undefined,
    );
    setEnv({ RPC_URL: proxy.url });
    try {
      expect((await postFunding(token, id, { signature })).status).toBe(202);
      const inFlight = await postFunding(token, id, { onChainTaskId: mine });
      expect(inFlight.status).toBe(409);
      expect(await missionStatus(id)).toBe('AWAITING_FUNDING');
    } finally {
      setEnv({ RPC_URL: workerRpcUrl() });
      await proxy.close();
    }
    // The sweep carries the relay through: the mission opens with the relay's task, not the wallet's.
    await sweep();
    expect(await missionStatus(id)).toBe('OPEN');
    const relayed = await linkedTask(id);
    expect(relayed).not.toBe(mine);
    const late = await postFunding(token, id, { onChainTaskId: mine });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(/another task/);
    expect(await linkedTask(id)).toBe(relayed);
    const again = await postFunding(token, id, { onChainTaskId: relayed });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'funded', onChainTaskId: relayed });
  });

  test('the relay and the fallback at once: one task funds it, a losing fallback is 409', async () => {
    const { wallet, token, id } = await unfundedMission(REWARD, 2n * REWARD);
    const signature = await signFunding(wallet, token, id);
    const mine = await ownTask(wallet, token, id);
    const [relay, fallback] = await Promise.all([
      postFunding(token, id, { signature }),
      postFunding(token, id, { onChainTaskId: mine }),
    ]);
    await sweep();
    expect(await missionStatus(id)).toBe('OPEN');
    const linked = await linkedTask(id);
    if (fallback.status === 200) expect(linked).toBe(mine);
    else {
      expect(fallback.status).toBe(409);
      expect(relay.status).toBe(202);
      expect(linked).not.toBe(mine);
    }
    // Whoever lost, the relay's row does not stay in flight for the sweep to pick up forever.
    expect((await relayRow(id))?.status ?? 'NONE').not.toBe('RELAYING');
  });
});

describe('attachments of unfunded missions (docs/api.md#unfunded-storage)', () => {
  const KIB = 1024;
  const PER_USER = 1024 * KIB;
  /** A PNG of about `bytes` bytes, its own content. */
  const image = (bytes: number) => ({
    filename: 'scan.png',
    contentType: 'image/png',
    content: pngOfSize(bytes),
  });
  async function poster(usdc = 0n) {
    const wallet = newWallet();
    if (usdc > 0n) await mintUsdc(wallet.address, usdc);
    const { token, user } = await signIn(wallet);
    return { wallet, token, userId: user.id as string };
  }
  const post = (token: string, files: ReturnType<typeof image>[]) => {
    const { tags, ...fields } = missionInput({ reward: REWARD.toString() });
    return upload(createRoute, { token, fields: { ...fields, tags: tags.join(',') }, files });
  };
  /** Attachment bytes every unfunded mission of this file's database holds now. */
  const heldNow = async () =>
    (
      await (
        await getDb()
      )
        .select({ bytes: sum(missionFiles.size).mapWith(Number) })
        .from(missionFiles)
        .innerJoin(missions, eq(missions.id, missionFiles.missionId))
        .where(and(eq(missions.status, 'AWAITING_FUNDING'), eq(missionFiles.kind, 'ATTACHMENT')))
    )[0]?.bytes ?? 0;

  test(
    "a poster's unfunded missions hold at most its quota: past it 413, nothing stored; " +
      'funded, the mission frees it',
    async () => {
      setEnv({ UNFUNDED_FILES_MAX_BYTES_PER_USER: String(PER_USER) });
      try {
        const { wallet, token, userId } = await poster(REWARD);
        const first = await post(token, [image(700 * KIB)]);
        expect(first.status, JSON.stringify(first.body)).toBe(201);
        const over = image(400 * KIB);
        const refused = await post(token, [over]);
        expect(refused.status).toBe(413);
        expect(refused.body.details[0]).toMatch(/UNFUNDED_FILES_MAX_BYTES_PER_USER.*1048576 bytes/);
        expect(await blobExists(sha256(over.content))).toBe(false);
        expect(await missionCountOf(userId)).toBe(1);
        // Without files it still posts: the quota counts bytes.
        expect((await post(token, [])).status).toBe(201);
        // The first one funded: its files are on a funded mission, and count no more.
        const firstId = first.body.id as string;
        expect(
          (await postFunding(token, firstId, { signature: await signFunding(wallet, token, firstId) })).status,
        ).toBe(202);
        expect(await missionStatus(firstId)).toBe('OPEN');
        expect((await post(token, [over])).status).toBe(201);
        expect(await blobExists(sha256(over.content))).toBe(true);
      } finally {
        setEnv({ UNFUNDED_FILES_MAX_BYTES_PER_USER: undefined });
      }
    },
  );

  test("one poster's concurrent posts cannot pass its quota together", async () => {
    setEnv({ UNFUNDED_FILES_MAX_BYTES_PER_USER: String(PER_USER) });
    try {
      const { token, userId } = await poster();
      const answers = await Promise.all([post(token, [image(600 * KIB)]), post(token, [image(600 * KIB)])]);
      expect(answers.map((a) => a.status).sort()).toEqual([201, 413]);
      expect(await missionCountOf(userId)).toBe(1);
    } finally {
      setEnv({ UNFUNDED_FILES_MAX_BYTES_PER_USER: undefined });
    }
  });

  test('all unfunded missions together hold at most the global quota: past it 409, nothing stored', async () => {
    // Room for 1 MiB more than the unfunded missions already hold.
    setEnv({ UNFUNDED_FILES_MAX_BYTES: String((await heldNow()) + PER_USER) });
    try {
      const one = await poster();
      expect((await post(one.token, [image(700 * KIB)])).status).toBe(201);
      const two = await poster();
      const over = image(400 * KIB);
      const refused = await post(two.token, [over]);
      expect(refused.status).toBe(409);
      expect(refused.body.details[0]).toMatch(/UNFUNDED_FILES_MAX_BYTES: .* at most \d+ bytes of attachments in all/);
      expect(await blobExists(sha256(over.content))).toBe(false);
      expect(await missionCountOf(two.userId)).toBe(0);
      // 300 KiB left: of two posters posting 200 KiB each at once, one fits.
      const [three, four] = [await poster(), await poster()];
      const answers = await Promise.all([post(three.token, [image(200 * KIB)]), post(four.token, [image(200 * KIB)])]);
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      expect((await missionCountOf(three.userId)) + (await missionCountOf(four.userId))).toBe(1);
    } finally {
      setEnv({ UNFUNDED_FILES_MAX_BYTES: undefined });
    }
  });
});
