// ERC-8004 feedback written by the settlement (docs/api.md#erc-8004-feedback), on anvil's reference
// registries with missions funded in the escrow: each outcome's value read back from the Reputation
// registry, the feedback file's keccak256 equal to the on-chain feedbackHash, nothing for an agent
// without an identity, and exactly one feedback through an RPC outage, a crash after the send or a lost
// lease; none for an identity that left the agent.
import { eq } from 'drizzle-orm';
import { keccak256, stringToBytes, toHex } from 'viem';
import { describe, expect, test } from 'vitest';
import { POST as createRoute } from '@/app/api/missions/route';
import { POST as linkRoute } from '@/app/api/agents/me/erc8004/route';
import { GET as feedbackRoute } from '@/app/api/missions/[id]/feedback.json/route';
import { POST as answerRoute } from '@/app/api/missions/[id]/settlement-offers/[offerId]/route';
import { POST as offerRoute } from '@/app/api/missions/[id]/settlement-offers/route';
import { GET as profileRoute } from '@/app/api/agents/[address]/route';
import { getDb } from '@/lib/db/client';
import { reputationFeedback, settlements } from '@/lib/db/schema';
import {
  feedbackDocumentSchema,
  forgetReputationSummaries,
  processFeedback,
  retryPendingFeedback,
} from '@/lib/erc8004';
import { retryPendingSettlements } from '@/lib/settlements';
import { identityRegistryArtifact } from '@/lib/chain/artifacts';
import { config } from '@/lib/config';
import { publicClient, walletOf } from '../support/chain';
import { call } from '../support/http';
import { setEnv, TEST_DOMAIN, useTestEnvironment } from '../support/environment';
import { chainNow, fundTask } from '../support/escrow';
import {
  agentWithWallet,
  feedbackEvents,
  OPERATOR,
  registerIdentity,
  registries,
  summaryOnChain,
} from '../support/erc8004';
import { act, getMission, missionInput, ok, type Party, past, resolve, setTimes } from '../support/missions';
import { award, closeEntries, createBounty, endWindow, enter, sweep } from '../support/bounties';
import { startReadOnlyRpc, startRpcProxy } from '../support/rpc-proxy';
import { newWallet, signIn } from '../support/wallets';

useTestEnvironment({ WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

const REWARD = 5_000_000n;

/** An agent with a linked ERC-8004 identity, and its agentId. */
async function linkedAgent() {
  const agent = await agentWithWallet();
  const agentId = await registerIdentity(agent.wallet);
  const linked = await call(linkRoute, { token: agent.token, method: 'POST', body: { agentId: agentId.toString() } });
  expect(linked.status, JSON.stringify(linked.body)).toBe(200);
  return { agent, agentId };
}

/** A mission funded on-chain (by `wallet`, a new client's unless given), taken and delivered by `agent`. */
async function submitted(agent: Party, wallet = newWallet(), reward = REWARD) {
  const taskId = await fundTask(wallet, reward);
  const { token, user } = await signIn(wallet);
  const client = { token, id: user.id, address: user.walletAddress } as Party;
  const created = await call(createRoute, {
    token,
    body: missionInput({ reward: reward.toString(), onChainTaskId: taskId }),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  await ok(act('accept', agent, id));
  await ok(act('submit', agent, id, { note: 'Done.' }));
  return { client, id };
}

const rowsOf = async (missionId: string) =>
  (await getDb()).select().from(reputationFeedback).where(eq(reputationFeedback.missionId, missionId));
const payoutOf = async (missionId: string) =>
  (await (await getDb()).select().from(settlements).where(eq(settlements.missionId, missionId)))[0];
/** The file as served: its status and exact text (what the hash is over), and the text parsed. */
async function feedbackFile(id: string, agent?: string) {
  const path = `/api/missions/${id}/feedback.json${agent ? `?agent=${agent}` : ''}`;
  const response = await feedbackRoute(new Request(`http://localhost:3000${path}`), {
    params: Promise.resolve({ id }),
  });
  const text = await response.text();
  return { status: response.status, text, body: response.status === 200 ? JSON.parse(text) : undefined };
}
const operatorNonce = () => publicClient().getTransactionCount({ address: OPERATOR, blockTag: 'pending' });

/** RPC_URL at a node down for sending, until the caller sets it back and closes it. */
async function sendsRefused(rpc: string) {
  const proxy = await startReadOnlyRpc(rpc);
  setEnv({ RPC_URL: proxy.url });
  return proxy;
}

describe('feedback at settlement', () => {
  test(
    'default: approved without contest gives 100 (tag2 approved); the file is served and ' +
      'hashes to the on-chain feedbackHash',
    async () => {
      const { agent, agentId } = await linkedAgent();
      const { client, id } = await submitted(agent);
      expect(await ok(act('approve', client, id))).toMatchObject({ status: 'COMPLETED' });

      const [row] = await rowsOf(id);
      expect(row).toMatchObject({
        status: 'MINED',
        value: 100,
        outcome: 'approved',
        feedbackUri: `https://${TEST_DOMAIN}/api/missions/${id}/feedback.json`,
      });
      expect(await summaryOnChain(agentId)).toEqual({ count: 1n, value: 100n, decimals: 0 });
      const [given] = await feedbackEvents(agentId);
      expect(given).toMatchObject({
        value: 100n,
        valueDecimals: 0,
        tag1: 'taskmarket',
        tag2: 'approved',
        feedbackURI: row!.feedbackUri,
        endpoint: `https://${TEST_DOMAIN}/api/mcp`,
      });

      const file = await feedbackFile(id);
      expect(file.status).toBe(200);
      expect(keccak256(stringToBytes(file.text))).toBe(given!.feedbackHash);
      const document = feedbackDocumentSchema.parse(file.body);
      expect(document).toMatchObject({
        type: 'taskmarket-feedback-v3',
        missionId: id,
        agent: agent.address,
        agentId: agentId.toString(),
        value: 100,
        tag2: 'approved',
        criteria: [],
        verdicts: [],
        checks: [],
        // docs/api.md#feedback-bounds: what the agent was paid, and by whom under a pseudonym (never the wallet).
        reward: { amount: REWARD.toString(), token: process.env.REWARD_TOKEN_ADDRESS!.toLowerCase() },
        client: expect.stringMatching(/^[0-9a-f]{32}$/),
      });
      expect(file.text.toLowerCase()).not.toContain(client.address.toLowerCase().slice(2));
      // The payout went first, and the file names its transaction.
      expect(document.settlement).toEqual({ kind: 'RELEASE', chainId: 31337, txHash: (await payoutOf(id))!.txHash });

      forgetReputationSummaries();
      expect((await call(profileRoute, { params: { address: agent.address } })).body.erc8004).toEqual({
        agentId: agentId.toString(),
        feedbackCount: 1,
        averageValue: 100,
        stale: false,
      });
    },
  );

  test('behavior: approved after a contest gives 60 (contest-won)', async () => {
    const { agent, agentId } = await linkedAgent();
    const { client, id } = await submitted(agent);
    await ok(act('contest', client, id, { reason: 'Fix the labels.' }));
    await ok(act('submit', agent, id, { note: 'Fixed.' }));
    await ok(act('approve', client, id));
    expect(await summaryOnChain(agentId)).toEqual({ count: 1n, value: 60n, decimals: 0 });
    expect((await feedbackEvents(agentId))[0]).toMatchObject({ tag2: 'contest-won' });
  });

  test('behavior: auto-approval by the sweep gives 100 (auto-approved)', async () => {
    const { agent, agentId } = await linkedAgent();
    const { id } = await submitted(agent);
    await setTimes(id, { reviewDeadline: past(1) });
    expect((await sweep()).status).toBe(200);
    expect(await summaryOnChain(agentId)).toEqual({ count: 1n, value: 100n, decimals: 0 });
    expect((await feedbackEvents(agentId))[0]).toMatchObject({ tag2: 'auto-approved' });
  });

  test("behavior: the operator's resolve against the agent gives 0; for it, 60", async () => {
    for (const [outcome, value, tag2] of [
      ['CANCELLED', 0n, 'resolved-against'],
      ['COMPLETED', 60n, 'contest-won'],
    ] as const) {
      const { agent, agentId } = await linkedAgent();
      const { client, id } = await submitted(agent);
      for (let round = 1; round <= 3; round += 1) {
        await ok(act('contest', client, id, { reason: `Round ${round}.` }));
        if (round < 3) await ok(act('submit', agent, id, { note: `Again ${round}.` }));
      }
      expect((await resolve(id, { outcome })).status).toBe(200);
      expect(await summaryOnChain(agentId)).toEqual({ count: 1n, value, decimals: 0 });
      expect((await feedbackEvents(agentId))[0]).toMatchObject({ tag2 });
      // A refund's file names the refund.
      expect(feedbackDocumentSchema.parse((await feedbackFile(id)).body).settlement?.kind).toBe(
        outcome === 'CANCELLED' ? 'REFUND' : 'RELEASE',
      );
    }
  });

  test('behavior: an agent without a linked identity gets nothing; its mission has no feedback file', async () => {
    const agent = await agentWithWallet();
    const { client, id } = await submitted(agent);
    const nonce = await operatorNonce();
    await ok(act('approve', client, id));
    expect(await rowsOf(id)).toEqual([]);
    expect(await operatorNonce()).toBe(nonce + 1); // the release only
    expect((await feedbackFile(id)).status).toBe(404);
  });

  test(
    'behavior: the RPC down when the mission settles: recorded, then given exactly once by ' +
      'the sweep after the payout',
    async () => {
      const { agent, agentId } = await linkedAgent();
      const { client, id } = await submitted(agent);
      const rpc = process.env.RPC_URL;
      // docs/api.md#escrow: the approval reads the task it releases; nothing it settles can be sent.
      const sendsDown = await sendsRefused(rpc!);
      try {
        expect(await ok(act('approve', client, id))).toMatchObject({ status: 'COMPLETED' });
        setEnv({ RPC_URL: 'http://127.0.0.1:9' });
        expect(await rowsOf(id)).toMatchObject([{ status: 'PENDING', txHash: null, document: null }]);
        expect((await sweep()).status).toBe(200);
        expect(await rowsOf(id)).toMatchObject([{ status: 'PENDING', txHash: null, attempts: 0 }]);
      } finally {
        setEnv({ RPC_URL: rpc });
        await sendsDown.close();
      }
      expect((await feedbackFile(id)).status).toBe(404);
      await sweep();
      expect((await payoutOf(id))!.status).toBe('MINED');
      expect(await rowsOf(id)).toMatchObject([{ status: 'MINED' }]);
      const nonce = await operatorNonce();
      await sweep();
      await sweep();
      expect(await operatorNonce()).toBe(nonce);
      expect((await summaryOnChain(agentId)).count).toBe(1n);
    },
  );

  test(
    'behavior: a crash after the send (its recorded hash unknown) finds the given feedback ' +
      'on-chain and never gives it twice',
    async () => {
      const { agent, agentId } = await linkedAgent();
      const { client, id } = await submitted(agent);
      await ok(act('approve', client, id));
      const [row] = await rowsOf(id);
      expect(row!.status).toBe('MINED');
      // As if the worker had died after the broadcast, having recorded another hash, before marking it.
      await (await getDb())
        .update(reputationFeedback)
        .set({ status: 'PENDING', txHash: keccak256(toHex('lost')) })
        .where(eq(reputationFeedback.id, row!.id));
      const nonce = await operatorNonce();
      await sweep();
      expect(await rowsOf(id)).toMatchObject([{ status: 'MINED', txHash: row!.txHash }]);
      expect(await operatorNonce()).toBe(nonce);
      expect((await summaryOnChain(agentId)).count).toBe(1n);
    },
  );

  test(
    'behavior: the hash recorded but the send never reached the node: the next sweep looks, ' +
      'finds nothing, and gives it once',
    async () => {
      const { agent, agentId } = await linkedAgent();
      const { client, id } = await submitted(agent);
      const rpc = process.env.RPC_URL!;
      // docs/api.md#escrow: the approval reads the task it releases; nothing it settles can be sent.
      const sendsDown = await sendsRefused(rpc!);
      try {
        expect(await ok(act('approve', client, id))).toMatchObject({ status: 'COMPLETED' });
      } finally {
        setEnv({ RPC_URL: rpc });
        await sendsDown.close();
      }
      // The sweep sends the release, then the feedback — whose broadcast the provider refuses.
      let sends = 0;
      const proxy = await startRpcProxy(rpc, (method) =>
        method === 'eth_sendRawTransaction' && ++sends === 2 ? { httpStatus: 503 } : undefined,
      );
      setEnv({ RPC_URL: proxy.url });
      try {
        await sweep();
      } finally {
        setEnv({ RPC_URL: rpc });
        await proxy.close();
      }
      expect((await payoutOf(id))!.status).toBe('MINED');
      const [recorded] = await rowsOf(id);
      expect(recorded).toMatchObject({ status: 'PENDING', txHash: expect.stringMatching(/^0x/) });
      expect((await summaryOnChain(agentId)).count).toBe(0n);
      await sweep();
      expect(await rowsOf(id)).toMatchObject([{ status: 'MINED' }]);
      expect((await summaryOnChain(agentId)).count).toBe(1n);
      await sweep();
      expect((await summaryOnChain(agentId)).count).toBe(1n);
    },
  );

  test(
    'behavior: a bounty gives each awarded place 100 (bounty-award), each its own file; ' +
      'entrants without a place get nothing',
    async () => {
      const [first, second, third] = [await linkedAgent(), await linkedAgent(), await linkedAgent()];
      const wallet = newWallet();
      const now = BigInt(Math.ceil(Date.now() / 1000));
      const chain = await chainNow();
      const taskId = await fundTask(wallet, REWARD, (chain > now ? chain : now) + 60n * 86_400n);
      const { token, user } = await signIn(wallet);
      const client = { token, id: user.id, address: user.walletAddress } as Party;
      const bounty = await createBounty(client, {
        reward: REWARD.toString(),
        onChainTaskId: taskId,
        winners: 2,
        deadline: new Date(Date.now() + 3_600_000).toISOString(),
      });
      const id = bounty.id as string;
      for (const { agent } of [first, second, third])
        expect((await enter(agent, id, `Entry of ${agent.address}`)).status).toBe(201);
      await closeEntries(id);
      await getMission(client, id);
      await ok(award(client, id, { winners: [first.agent.address, second.agent.address] }));
      await endWindow(id);
      await ok(sweep());

      for (const { agent, agentId } of [first, second]) {
        expect(await summaryOnChain(agentId)).toEqual({ count: 1n, value: 100n, decimals: 0 });
        const [given] = await feedbackEvents(agentId);
        expect(given).toMatchObject({
          tag2: 'bounty-award',
          feedbackURI: `https://${TEST_DOMAIN}/api/missions/${id}/feedback.json?agent=${agent.address}`,
        });
        const file = await feedbackFile(id, agent.address);
        expect(keccak256(stringToBytes(file.text))).toBe(given!.feedbackHash);
        expect(feedbackDocumentSchema.parse(file.body)).toMatchObject({
          agent: agent.address,
          settlement: { kind: 'SPLIT' },
        });
      }
      expect((await summaryOnChain(third.agentId)).count).toBe(0n);
      // Two files: without `agent` there is no one file to answer.
      expect((await feedbackFile(id)).status).toBe(404);
      expect((await feedbackFile(id, third.agent.address)).status).toBe(404);
    },
  );

  test('behavior: feedback waiting for a FAILED payout never crowds out one that can go', async () => {
    const rpc = process.env.RPC_URL!;
    const stuck = await linkedAgent();
    const waiting = await submitted(stuck.agent);
    // docs/api.md#escrow: the approval reads the task it releases; nothing it settles can be sent.
    const sendsDown = await sendsRefused(rpc);
    try {
      await ok(act('approve', waiting.client, waiting.id));
    } finally {
      setEnv({ RPC_URL: rpc });
      await sendsDown.close();
    }
    // Its payout gave up: it waits for the operator's retry, and so does its feedback.
    await (await getDb()).update(settlements).set({ status: 'FAILED' }).where(eq(settlements.missionId, waiting.id));
    const ready = await linkedAgent();
    const later = await submitted(ready.agent);
    // The release goes; the feedback's broadcast is refused, so it is left for the sweep.
    let sends = 0;
    const proxy = await startRpcProxy(rpc, (method) =>
      method === 'eth_sendRawTransaction' && ++sends === 2 ? { httpStatus: 503 } : undefined,
    );
    setEnv({ RPC_URL: proxy.url });
    try {
      await ok(act('approve', later.client, later.id));
    } finally {
      setEnv({ RPC_URL: rpc });
      await proxy.close();
    }
    expect(await rowsOf(later.id)).toMatchObject([{ status: 'PENDING' }]);
    // A batch of one: the older, waiting row is not the one it takes.
    await retryPendingFeedback(await getDb(), config(), 1);
    expect(await rowsOf(later.id)).toMatchObject([{ status: 'MINED' }]);
    expect((await summaryOnChain(ready.agentId)).count).toBe(1n);
    expect(await rowsOf(waiting.id)).toMatchObject([{ status: 'PENDING', txHash: null }]);
  });
});

describe('feedback that cannot be bought (docs/api.md#feedback-bounds)', () => {
  const USDC = 1_000_000n;

  test('behavior: a mission of one base unit settles (the agent paid) with no feedback', async () => {
    const { agent, agentId } = await linkedAgent();
    const { client, id } = await submitted(agent, newWallet(), 1n);
    const nonce = await operatorNonce();
    expect(await ok(act('approve', client, id))).toMatchObject({ status: 'COMPLETED' });
    expect((await payoutOf(id))!.status).toBe('MINED');
    expect(await rowsOf(id)).toEqual([]);
    expect(await operatorNonce()).toBe(nonce + 1); // the release only
    expect((await summaryOnChain(agentId)).count).toBe(0n);
    expect((await feedbackFile(id)).status).toBe(404);
    // Just under the floor: none either.
    const under = await submitted(agent, newWallet(), USDC - 1n);
    await ok(act('approve', under.client, under.id));
    expect(await rowsOf(under.id)).toEqual([]);
  });

  test(
    'behavior: 1 USDC gives feedback; the same client and agent again within 24 h give ' +
      'none, another client does, and a day later the pair does again',
    async () => {
      const { agent, agentId } = await linkedAgent();
      const wallet = newWallet();
      const first = await submitted(agent, wallet, USDC);
      await ok(act('approve', first.client, first.id));
      expect(await rowsOf(first.id)).toMatchObject([{ status: 'MINED', reward: USDC.toString() }]);
      const pseudonym = feedbackDocumentSchema.parse((await feedbackFile(first.id)).body);

      const again = await submitted(agent, wallet, 50n * USDC);
      const nonce = await operatorNonce();
      await ok(act('approve', again.client, again.id));
      expect(await rowsOf(again.id)).toEqual([]);
      expect(await operatorNonce()).toBe(nonce + 1); // the release only
      expect((await summaryOnChain(agentId)).count).toBe(1n);

      // Another client of the same agent: its own feedback, its own pseudonym.
      const other = await submitted(agent, newWallet(), USDC);
      await ok(act('approve', other.client, other.id));
      expect(await rowsOf(other.id)).toMatchObject([{ status: 'MINED' }]);
      const otherFile = feedbackDocumentSchema.parse((await feedbackFile(other.id)).body);
      expect('client' in otherFile && 'client' in pseudonym && otherFile.client !== pseudonym.client).toBe(true);

      // The pair's feedback is a day old: the next settlement gives one again, under the same pseudonym.
      await (await getDb())
        .update(reputationFeedback)
        .set({ createdAt: new Date(Date.now() - 24 * 3_600_000 - 60_000) })
        .where(eq(reputationFeedback.missionId, first.id));
      const later = await submitted(agent, wallet, 2n * USDC);
      await ok(act('approve', later.client, later.id));
      expect(await rowsOf(later.id)).toMatchObject([{ status: 'MINED', reward: (2n * USDC).toString() }]);
      const laterFile = feedbackDocumentSchema.parse((await feedbackFile(later.id)).body);
      expect(laterFile).toMatchObject({ client: (pseudonym as { client: string }).client });
      expect((await summaryOnChain(agentId)).count).toBe(3n);
    },
  );

  test('behavior: two settlements of one pair at the same moment give one feedback', async () => {
    const { agent, agentId } = await linkedAgent();
    const wallet = newWallet();
    const one = await submitted(agent, wallet);
    const two = await submitted(agent, wallet);
    const answers = await Promise.all([act('approve', one.client, one.id), act('approve', two.client, two.id)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect([...(await rowsOf(one.id)), ...(await rowsOf(two.id))]).toHaveLength(1);
    await sweep();
    expect((await summaryOnChain(agentId)).count).toBe(1n);
  });

  test(
    "behavior: past the operator's hourly feedback budget the feedback waits, PENDING, " +
      'and goes once the budget has room',
    async () => {
      const { agent, agentId } = await linkedAgent();
      const { client, id } = await submitted(agent);
      setEnv({ ERC8004_FEEDBACK_BUDGET_PER_HOUR: '0' });
      try {
        const nonce = await operatorNonce();
        await ok(act('approve', client, id));
        expect((await payoutOf(id))!.status).toBe('MINED');
        expect(await rowsOf(id)).toMatchObject([
          { status: 'PENDING', txHash: null, attempts: 0, lastError: expect.stringMatching(/budget .*next hour/) },
        ]);
        await sweep();
        expect(await rowsOf(id)).toMatchObject([{ status: 'PENDING', txHash: null, attempts: 0 }]);
        expect(await operatorNonce()).toBe(nonce + 1); // the release only
        expect((await summaryOnChain(agentId)).count).toBe(0n);
      } finally {
        setEnv({ ERC8004_FEEDBACK_BUDGET_PER_HOUR: undefined });
      }
      // Room again (as in the next hour): the sweep gives it, once.
      await sweep();
      expect(await rowsOf(id)).toMatchObject([{ status: 'MINED', lastError: null }]);
      await sweep();
      expect((await summaryOnChain(agentId)).count).toBe(1n);
    },
  );
});

describe('feedback sent under a lease, to an identity still the agent’s', () => {
  /** Settled with the RPC down, then only its payout carried: the feedback PENDING, nothing sent yet. */
  async function pendingFeedback() {
    const { agent, agentId } = await linkedAgent();
    const { client, id } = await submitted(agent);
    const rpc = process.env.RPC_URL!;
    // docs/api.md#escrow: the approval reads the task it releases; nothing it settles can be sent.
    const sendsDown = await sendsRefused(rpc!);
    try {
      expect(await ok(act('approve', client, id))).toMatchObject({ status: 'COMPLETED' });
    } finally {
      setEnv({ RPC_URL: rpc });
      await sendsDown.close();
    }
    await retryPendingSettlements(await getDb(), config(), async () => {});
    expect((await payoutOf(id))!.status).toBe('MINED');
    const [row] = await rowsOf(id);
    expect(row).toMatchObject({ status: 'PENDING', txHash: null });
    return { agent, agentId, id, row: row! };
  }

  test('behavior: a sender whose lease ran out before its send records nothing and sends nothing', async () => {
    const { agentId, id, row } = await pendingFeedback();
    const nonce = await operatorNonce();
    // Claimed an hour ago: its lease (the wait plus a margin) is over by the time it would record.
    const stalled = await processFeedback(await getDb(), config(), row.id, 5_000, new Date(Date.now() - 3_600_000));
    expect(stalled).toMatchObject({ status: 'PENDING', txHash: null });
    expect(await operatorNonce()).toBe(nonce);
    expect((await summaryOnChain(agentId)).count).toBe(0n);
    await sweep();
    expect(await rowsOf(id)).toMatchObject([{ status: 'MINED' }]);
    expect((await summaryOnChain(agentId)).count).toBe(1n);
  });

  test('behavior: a stalled sender and the sweep that took its row over give the feedback once', async () => {
    const { agentId, id, row } = await pendingFeedback();
    const db = await getDb();
    const nonce = await operatorNonce();
    // The stalled one claims first (with a lease already over), then the sweep claims the row from it.
    const stalled = processFeedback(db, config(), row.id, 5_000, new Date(Date.now() - 3_600_000));
    while ((await rowsOf(id))[0]!.attempts === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const [first, second] = await Promise.all([stalled, processFeedback(db, config(), row.id, 5_000)]);
    expect([first.status, second.status]).toContain('MINED');
    expect(await rowsOf(id)).toMatchObject([{ status: 'MINED' }]);
    expect(await operatorNonce()).toBe(nonce + 1);
    expect((await summaryOnChain(agentId)).count).toBe(1n);
  });

  test(
    'behavior: an identity transferred away since the settlement gets nothing; the row ' + 'stops as FAILED',
    async () => {
      const { agent, agentId } = await linkedAgent();
      const { client, id } = await submitted(agent);
      const buyer = newWallet();
      const hash = await walletOf(agent.wallet).writeContract({
        address: registries().identityRegistry,
        abi: identityRegistryArtifact.abi,
        functionName: 'transferFrom',
        args: [agent.wallet.address, buyer.address, agentId],
      });
      await publicClient().waitForTransactionReceipt({ hash });
      const nonce = await operatorNonce();
      await ok(act('approve', client, id));
      expect((await payoutOf(id))!.status).toBe('MINED');
      expect(await rowsOf(id)).toMatchObject([{ status: 'FAILED', lastError: expect.stringMatching(/no longer/) }]);
      expect(await operatorNonce()).toBe(nonce + 1); // the release only
      await sweep();
      expect((await summaryOnChain(agentId)).count).toBe(0n);
    },
  );
});

describe('feedback for a settlement in part (docs/api.md#split-feedback)', () => {
  test('behavior: a split by agreement and one by the operator give the percent released, tag2 partial', async () => {
    const { agent, agentId } = await linkedAgent();
    const { client, id } = await submitted(agent);
    // 30 % (1_500_000 of 5_000_000) by agreement: the agent offers, the client accepts.
    const offered = await call(offerRoute, {
      method: 'POST',
      token: agent.token,
      params: { id },
      body: { agentAmount: '1500000' },
    });
    expect(offered.status, JSON.stringify(offered.body)).toBe(201);
    const accepted = await call(answerRoute, {
      method: 'POST',
      token: client.token,
      params: { id, offerId: offered.body.offer.id },
      body: { decision: 'accept' },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(await rowsOf(id)).toMatchObject([{ status: 'MINED', value: 30, outcome: 'partial' }]);
    expect((await feedbackEvents(agentId))[0]).toMatchObject({ value: 30n, tag1: 'taskmarket', tag2: 'partial' });
    const file = await feedbackFile(id);
    expect(file.body).toMatchObject({ value: 30, tag2: 'partial' });
    expect(file.body.settlement).toMatchObject({ kind: 'SETTLE', txHash: (await payoutOf(id))!.txHash });

    // 66 % (3_333_333 of 5_000_000, rounded down) by the operator's split verdict, for another client.
    const other = await submitted(agent);
    for (let round = 1; round <= 3; round += 1) {
      await ok(act('contest', other.client, other.id, { reason: `Round ${round}.` }));
      if (round < 3) await ok(act('submit', agent, other.id, { note: `Again ${round}.` }));
    }
    expect((await resolve(other.id, { outcome: 'SPLIT', agentAmount: '3333333' })).status).toBe(200);
    expect(await rowsOf(other.id)).toMatchObject([{ status: 'MINED', value: 66, outcome: 'partial' }]);
    expect(await summaryOnChain(agentId)).toEqual({ count: 2n, value: 48n, decimals: 0 });
  });
});
