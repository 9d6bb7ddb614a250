// ERC-8004 feedback for clients that are agents (docs/api.md#client-feedback), on anvil's reference
// registries with missions funded in the escrow: a client linked to an identity gets feedback from the
// settlement too — tag1 `client`, tag2 paid, auto-approved, contest-upheld or contest-overturned —
// through the same outbox, under the same floor and the pair rule the other way round; its file is served
// under `?client=`, and /.well-known/taskmarket-reputation.json names the operator and the tags.
import { eq } from 'drizzle-orm';
import { getAbiItem, keccak256, stringToBytes } from 'viem';
import { describe, expect, test } from 'vitest';
import { POST as createRoute } from '@/app/api/missions/route';
import { POST as linkClientRoute } from '@/app/api/clients/me/erc8004/route';
import { GET as clientRoute } from '@/app/api/clients/[address]/route';
import { GET as feedbackRoute } from '@/app/api/missions/[id]/feedback.json/route';
import { GET as policyRoute } from '@/app/api/public/reputation/route';
import { getDb } from '@/lib/db/client';
import { reputationFeedback } from '@/lib/db/schema';
import { feedbackDocumentSchema, forgetReputationSummaries } from '@/lib/erc8004';
import { reputationRegistryArtifact } from '@/lib/chain/artifacts';
import { publicClient } from '../support/chain';
import { call } from '../support/http';
import { setEnv, TEST_DOMAIN, useTestEnvironment } from '../support/environment';
import { fundTask } from '../support/escrow';
import { agentWithWallet, OPERATOR, registerIdentity, registries } from '../support/erc8004';
import { act, missionInput, ok, type Party, past, resolve, setTimes } from '../support/missions';
import { sweep } from '../support/bounties';
import { newWallet, signIn } from '../support/wallets';

useTestEnvironment({ WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

const REWARD = 5_000_000n;

/** A client whose wallet holds an ERC-8004 identity it linked, and that identity's agentId. */
async function linkedClient() {
  const wallet = newWallet();
  const agentId = await registerIdentity(wallet);
  const { token } = await signIn(wallet);
  const linked = await call(linkClientRoute, { token, method: 'POST', body: { agentId: agentId.toString() } });
  expect(linked.status, JSON.stringify(linked.body)).toBe(200);
  return { wallet, agentId };
}

/** A mission funded on-chain by `wallet`, taken and delivered by `agent`. */
async function submitted(agent: Party, wallet: ReturnType<typeof newWallet>, reward = REWARD) {
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

const clientRowsOf = async (missionId: string) =>
  (await (await getDb()).select().from(reputationFeedback).where(eq(reputationFeedback.missionId, missionId))).filter(
    (row) => row.subject === 'client',
  );

/** What our operator said of `agentId` under tag1 `client`, from the registry. */
async function clientSummary(agentId: bigint) {
  const [count, value] = await publicClient().readContract({
    address: registries().reputationRegistry,
    abi: reputationRegistryArtifact.abi,
    functionName: 'getSummary',
    args: [agentId, [OPERATOR], 'client', ''],
  });
  return { count, value };
}

async function clientEvents(agentId: bigint) {
  const logs = await publicClient().getLogs({
    address: registries().reputationRegistry,
    event: getAbiItem({ abi: reputationRegistryArtifact.abi, name: 'NewFeedback' }),
    args: { agentId, clientAddress: OPERATOR },
    fromBlock: 0n,
  });
  return logs.map((log) => log.args);
}

/** The operator's next nonce: every transaction it sends (a release, a feedback) counts one. */
const operatorNonce = () => publicClient().getTransactionCount({ address: OPERATOR, blockTag: 'pending' });

async function feedbackFile(id: string, client: string) {
  const response = await feedbackRoute(
    new Request(`http://localhost:3000/api/missions/${id}/feedback.json?client=${client}`),
    { params: Promise.resolve({ id }) },
  );
  const text = await response.text();
  return { status: response.status, text, body: response.status === 200 ? JSON.parse(text) : undefined };
}

describe('feedback for a client that is an agent (docs/api.md#client-feedback)', () => {
  test('default: an approval gives the client 100 (tag1 client, tag2 paid), its file hashed', async () => {
    const { wallet, agentId } = await linkedClient();
    const agent = await agentWithWallet();
    const { client, id } = await submitted(agent, wallet);
    await ok(act('approve', client, id));
    const [row] = await clientRowsOf(id);
    expect(row).toMatchObject({
      status: 'MINED',
      value: 100,
      outcome: 'paid',
      feedbackUri: `https://${TEST_DOMAIN}/api/missions/${id}/feedback.json?client=${client.address}`,
    });
    const [given] = await clientEvents(agentId);
    expect(given).toMatchObject({ value: 100n, tag1: 'client', tag2: 'paid', feedbackURI: row!.feedbackUri });
    const file = await feedbackFile(id, client.address);
    expect(file.status).toBe(200);
    expect(keccak256(stringToBytes(file.text))).toBe(given!.feedbackHash);
    expect(feedbackDocumentSchema.parse(file.body)).toMatchObject({
      type: 'taskmarket-client-feedback-v1',
      client: client.address,
      agentId: agentId.toString(),
      tag1: 'client',
      tag2: 'paid',
      agent: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    // Never the agent's wallet: it is named by pseudonym.
    expect(file.text).not.toContain(agent.address.slice(2));
    // The client's record shows what our operator said of it, and only that (tag1 client).
    forgetReputationSummaries();
    expect((await call(clientRoute, { params: { address: client.address } })).body.erc8004).toEqual({
      agentId: agentId.toString(),
      feedbackCount: 1,
      averageValue: 100,
      stale: false,
    });
  });

  test('behavior: silence gives auto-approved; the operator upholding or overturning a contest says so', async () => {
    const agent = await agentWithWallet();
    const silent = await linkedClient();
    const quiet = await submitted(agent, silent.wallet);
    await setTimes(quiet.id, { reviewDeadline: past(1) });
    expect((await sweep()).status).toBe(200);
    expect((await clientEvents(silent.agentId)).map((e) => [e.tag2, e.value])).toEqual([['auto-approved', 70n]]);
    for (const [outcome, tag2, value] of [
      ['CANCELLED', 'contest-upheld', 80n],
      ['COMPLETED', 'contest-overturned', 0n],
    ] as const) {
      const { wallet, agentId } = await linkedClient();
      const { client, id } = await submitted(agent, wallet);
      for (let round = 1; round <= 3; round += 1) {
        await ok(act('contest', client, id, { reason: `Round ${round}.` }));
        if (round < 3) await ok(act('submit', agent, id, { note: `Again ${round}.` }));
      }
      expect((await resolve(id, { outcome })).status).toBe(200);
      await sweep();
      expect((await clientEvents(agentId)).map((e) => [e.tag2, e.value])).toEqual([[tag2, value]]);
      expect(await clientSummary(agentId)).toMatchObject({ count: 1n });
    }
  });

  test('behavior: under the floor none; the same agent within 24 h none; a client without identity none', async () => {
    const agent = await agentWithWallet();
    const { wallet, agentId } = await linkedClient();
    const small = await submitted(agent, wallet, 999_999n);
    await ok(act('approve', small.client, small.id));
    expect(await clientRowsOf(small.id)).toEqual([]);
    const first = await submitted(agent, wallet);
    await ok(act('approve', first.client, first.id));
    const again = await submitted(agent, wallet);
    await ok(act('approve', again.client, again.id));
    expect(await clientRowsOf(first.id)).toHaveLength(1);
    expect(await clientRowsOf(again.id)).toEqual([]);
    // Another agent of the same client: a pair of its own.
    const other = await submitted(await agentWithWallet(), wallet);
    await ok(act('approve', other.client, other.id));
    expect(await clientRowsOf(other.id)).toHaveLength(1);
    await sweep();
    expect((await clientSummary(agentId)).count).toBe(2n);
    const plain = await submitted(agent, newWallet());
    await ok(act('approve', plain.client, plain.id));
    expect(await clientRowsOf(plain.id)).toEqual([]);
  });

  test(
    "behavior: under the floor the client's feedback is not sent; past the operator's hourly budget it waits, " +
      'PENDING and unsent, and goes once the budget has room',
    async () => {
      // docs/api.md#client-feedback: the same bounds as the agents' feedback (docs/api.md#feedback-bounds).
      // The agent has no identity, so every feedback row and transaction here is the client's.
      const agent = await agentWithWallet();
      const { wallet, agentId } = await linkedClient();
      const small = await submitted(agent, wallet, 999_999n);
      let nonce = await operatorNonce();
      await ok(act('approve', small.client, small.id));
      expect(await clientRowsOf(small.id)).toEqual([]);
      expect(await operatorNonce()).toBe(nonce + 1); // the release only
      // The same pair: the floor wrote no row, so no pair rule holds the next one back — the budget does.
      const { client, id } = await submitted(agent, wallet);
      setEnv({ ERC8004_FEEDBACK_BUDGET_PER_HOUR: '0' });
      try {
        nonce = await operatorNonce();
        await ok(act('approve', client, id));
        expect(await clientRowsOf(id)).toMatchObject([
          { status: 'PENDING', txHash: null, attempts: 0, lastError: expect.stringMatching(/budget .*next hour/) },
        ]);
        await sweep();
        expect(await clientRowsOf(id)).toMatchObject([{ status: 'PENDING', txHash: null, attempts: 0 }]);
        expect(await operatorNonce()).toBe(nonce + 1); // the release only
        expect((await clientSummary(agentId)).count).toBe(0n);
      } finally {
        setEnv({ ERC8004_FEEDBACK_BUDGET_PER_HOUR: undefined });
      }
      // Room again (as in the next hour): the sweep gives it, once.
      await sweep();
      expect(await clientRowsOf(id)).toMatchObject([{ status: 'MINED', lastError: null }]);
      await sweep();
      expect((await clientSummary(agentId)).count).toBe(1n);
    },
  );

  test('default: /.well-known/taskmarket-reputation.json names the operator, the registries and the tags', async () => {
    const answer = await call(policyRoute, { path: '/api/public/reputation' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      type: 'taskmarket-reputation-v1',
      operator: OPERATOR.toLowerCase(),
      reputationRegistry: `eip155:31337:${registries().reputationRegistry.toLowerCase()}`,
      tags: {
        agent: { tag1: 'taskmarket', outcomes: { approved: 100, 'auto-approved': 100 } },
        client: {
          tag1: 'client',
          outcomes: { paid: 100, 'auto-approved': 70, 'contest-upheld': 80, 'contest-overturned': 0 },
        },
      },
      minReward: '1000000',
    });
  });
});
