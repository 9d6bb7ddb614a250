// The rest of the SDK's surface, each method against the real server: the marketplace round
// (comments, apply, assign, contest with evidence, resubmit, review), uploads from Blobs, Files and
// bytes, bump and cancel, account and analytics, the public reads and webhooks.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { TaskmarketError } from '../../sdk/src/index';
import { SERVER_START_TIMEOUT, startSdkTestServer, type SdkTestServer } from '../support/sdk/server';
import {
  claimableOf,
  clientWallet,
  deadlineIn,
  deliverablesOnDisk,
  escrowTask,
  eventually,
  sdkClient,
  usdcBalance,
} from '../support/sdk/sdk-fixtures';

let server: SdkTestServer;
const ADMIN_TOKEN = `admin-${'a'.repeat(40)}`;
const CRON_SECRET = `cron-${'c'.repeat(40)}`;

beforeAll(async () => {
  // Webhook endpoints on localhost are refused in production unless this says it is a test.
  server = await startSdkTestServer({ WEBHOOK_ALLOW_PRIVATE: '1', ADMIN_TOKEN, CRON_SECRET });
}, SERVER_START_TIMEOUT);

afterAll(async () => {
  await server?.stop();
});

const USDC = 1_000_000n;

async function agentClient() {
  const account = privateKeyToAccount(generatePrivateKey());
  const tm = sdkClient(server, account);
  await tm.registerAgent();
  return { tm, address: account.address.toLowerCase() };
}

describe('marketplace', () => {
  test('default: comments, apply, assign, contest with evidence, resubmit, approve, review', async () => {
    const client = sdkClient(server, await clientWallet(server, 10n * USDC));
    const { tm: agent, address: agentAddress } = await agentClient();

    // Attachments as a File and as bytes with a name.
    const brief = new File(['# Brief\nA logo, please.\n'], 'brief.md', { type: 'text/markdown' });
    const mission = await client.fundAndCreateMission(
      {
        title: 'Design a logo',
        description: 'Apply with a pitch',
        category: 'design',
        reward: (10n * USDC).toString(),
        deadline: deadlineIn(10),
        assignment: 'APPLICATION',
      },
      { files: [brief, { name: 'colors.csv', data: new TextEncoder().encode('name,hex\nblue,#0000ff\n') }] },
    );
    expect(mission.assignment).toBe('APPLICATION');
    expect(mission.attachments.map((f) => [f.filename, f.contentType])).toEqual([
      ['brief.md', 'text/markdown'],
      ['colors.csv', 'text/csv'],
    ]);
    expect(await (await client.missions.download(mission.id, mission.attachments[0]!.id)).text()).toBe(
      '# Brief\nA logo, please.\n',
    );

    const question = await agent.missions.comment(mission.id, { body: 'Which colours?' });
    await client.missions.comment(mission.id, { body: 'Blue, see colors.csv' });
    const thread = await client.missions.comments(mission.id).toArray();
    expect(thread.map((c) => c.body)).toEqual(['Which colours?', 'Blue, see colors.csv']);
    expect(thread[0]!.id).toBe(question.id);

    const accepting = await agent.missions.accept(mission.id).catch((e: unknown) => e);
    expect(accepting).toMatchObject({ status: 409 }); // APPLICATION missions are assigned, not accepted
    await agent.missions.apply(mission.id, { pitch: 'I draw logos every day.' });
    const applications = await client.missions.applications(mission.id);
    expect(applications.items).toHaveLength(1);
    const assigned = await client.missions.assign(mission.id, { agent: agentAddress });
    expect(assigned).toMatchObject({ status: 'ACCEPTED', agent: { walletAddress: agentAddress } });

    expect((await agent.missions.submit(mission.id, { note: 'First draft' })).status).toBe('SUBMITTED');
    const files = deliverablesOnDisk();
    const contested = await client.missions.contest(mission.id, {
      reason: 'Too dark',
      files: [
        new Blob(['the blue is too dark\n'], { type: 'text/plain' }),
        { name: 'marked.png', data: files.imageBytes },
      ],
    });
    expect(contested.status).toBe('CONTESTED');
    expect(contested.contests[0]!.files.map((f) => f.contentType)).toEqual(['text/plain', 'image/png']);

    const resubmitted = await agent.missions.submit(mission.id, {
      note: 'Lighter',
      files: [{ name: 'logo.json', data: new TextEncoder().encode('{"fill":"#3399ff"}') }],
    });
    expect(resubmitted.submission?.files.map((f) => f.filename)).toEqual(['logo.json']);
    expect((await client.missions.approve(mission.id)).status).toBe('COMPLETED');

    const review = await client.missions.review(mission.id, { rating: 5, comment: 'Great' });
    expect(review).toMatchObject({ rating: 5, comment: 'Great' });
    expect(await client.missions.updateReview(mission.id, { rating: 4 })).toMatchObject({ rating: 4 });
    // docs/api.md#client-reviews: sealed until the other side reviews too; the agent's review opens both.
    expect((await agent.agents.get(agentAddress)).ratingCount).toBe(0);
    await agent.missions.review(mission.id, { rating: 5 });
    const profile = await agent.agents.get(agentAddress);
    expect(profile).toMatchObject({ walletAddress: agentAddress, rating: 4, ratingCount: 1 });
  });

  test("behavior: bump, cancel, and reads of the owner's missions", async () => {
    const client = sdkClient(server, await clientWallet(server, 2n * USDC));
    const mission = await client.fundAndCreateMission({
      title: 'Bump me',
      description: 'Then cancel',
      reward: (2n * USDC).toString(),
      deadline: deadlineIn(4),
    });
    const bumped = await client.missions.bump(mission.id);
    expect(bumped.bumpCount).toBe(1);
    // Once an hour: a 429 whose Retry-After is far beyond a minute comes back at once, not waited for.
    const started = Date.now();
    const again = await client.missions.bump(mission.id).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(TaskmarketError);
    expect((again as TaskmarketError).status).toBe(429);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await client.missions.cancel(mission.id)).status).toBe('CANCELLED');
    const mine = await client.missions.list({ mine: 'client', status: 'CANCELLED' }).toArray();
    expect(mine.map((m) => m.id)).toEqual([mission.id]);
    const { tm: agent } = await agentClient();
    expect(await agent.missions.get(mission.id).catch((e: unknown) => e)).toMatchObject({ status: 404 });
  });
});

// docs/api.md#offerings, #declining, #client-record.
describe('hire an agent', () => {
  test('default: offerings create, update, get, list, order and deactivate; decline refunds; clients.get', async () => {
    const buyerAccount = await clientWallet(server, 5n * USDC);
    const buyer = sdkClient(server, buyerAccount);
    const { tm: agent, address: agentAddress } = await agentClient();
    const tag = `sdk-hire-${Date.now()}`;
    const { offering } = await agent.offerings.create({
      title: 'Label 100 photos',
      description: 'COCO boxes, one file',
      price: (3n * USDC).toString(),
      slaHours: 24,
      tags: [tag],
    });
    expect((await agent.offerings.update(offering.id, { price: (4n * USDC).toString() })).offering.price).toBe(
      '4000000',
    );
    expect((await buyer.offerings.get(offering.id)).offering).toMatchObject({
      price: '4000000',
      slaHours: 24,
      active: true,
      agent: { walletAddress: agentAddress },
    });
    expect((await buyer.offerings.list({ tag }).toArray()).map((o) => o.id)).toEqual([offering.id]);

    // The order is at the offering's price now; funded, it is the agent's at once.
    const order = await buyer.offerings.order(offering.id);
    expect(order).toMatchObject({ status: 'AWAITING_FUNDING', reward: '4000000', assignment: 'DIRECT' });
    await buyer.missions.fund(order.id);
    const accepted = await buyer.missions.get(order.id);
    expect(accepted).toMatchObject({ status: 'ACCEPTED', agent: { walletAddress: agentAddress } });

    // The agent declines: CANCELLED, and all 4 USDC are the buyer's again on-chain.
    expect((await agent.missions.decline(order.id, { reason: 'Fully booked today' })).status).toBe('CANCELLED');
    await eventually(
      () => escrowTask(server, accepted.onChainTaskId!),
      (task) => task[2] === 3, // Refunded
      'the task refunded',
    );
    expect((await usdcBalance(server, buyerAccount.address)) + (await claimableOf(server, buyerAccount.address))).toBe(
      5n * USDC,
    );
    expect(await agent.missions.decline(order.id).catch((e: unknown) => e)).toMatchObject({ status: 409 });

    expect((await agent.offerings.deactivate(offering.id)).offering.active).toBe(false);
    expect(await buyer.offerings.list({ tag }).toArray()).toEqual([]);
    expect(await buyer.offerings.order(offering.id).catch((e: unknown) => e)).toMatchObject({ status: 409 });

    // The buyer's record: one funded, none completed; the agent's decline is not the client walking away.
    const profile = await agent.clients.get(buyerAccount.address);
    expect(profile.walletAddress).toBe(buyerAccount.address.toLowerCase());
    expect(profile.record).toMatchObject({ funded: 1, completed: 0, cancelledAfterAcceptance: 0 });
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    expect(await agent.clients.get(stranger).catch((e: unknown) => e)).toMatchObject({ status: 404 });
  });
});

describe('account, analytics and public reads', () => {
  test('default: profile, stats, analytics, leaderboard, public config and health', async () => {
    const tm = sdkClient(server, privateKeyToAccount(generatePrivateKey()));
    expect(await tm.account.updateProfile({ displayName: 'SDK tester', website: 'https://example.com' })).toMatchObject(
      { displayName: 'SDK tester', website: 'https://example.com' },
    );
    expect((await tm.account.profile()).displayName).toBe('SDK tester');
    expect(await tm.account.stats()).toEqual(expect.any(Object));
    expect(await tm.enterprise.analytics({ interval: 'week' })).toEqual(
      expect.objectContaining({ range: expect.any(Object) }),
    );
    const config = await tm.public.config();
    expect(config).toMatchObject({
      chainId: server.chain.chainId,
      contracts: { escrow: server.chain.contracts.escrow.toLowerCase() },
    });
    expect(await tm.public.config()).toBe(config); // fetched once per client
    expect((await tm.public.stats()).missions.total).toEqual(expect.any(Number));
    expect(await tm.public.leaderboard({ period: 'all' })).toEqual(expect.any(Object));
    const firstPage = await tm.agents.leaderboard({ period: 'all', limit: 1 });
    expect(firstPage.items.length).toBeLessThanOrEqual(1);
    expect((await tm.health()).db).toEqual(expect.anything());
    const invalid = await tm.account.updateProfile({ website: 'ftp://nope' }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(TaskmarketError);
    expect(invalid).toMatchObject({
      status: 400,
      details: expect.arrayContaining([expect.stringMatching(/^website/)]),
    });
  });
});

describe('webhooks', () => {
  test('default: create (secret shown once), list, deliveries, remove', async () => {
    const tm = sdkClient(server, privateKeyToAccount(generatePrivateKey()));
    const created = await tm.webhooks.create({
      url: 'https://localhost:9/hook',
      events: ['mission.created'],
      filter: { category: 'sdk-webhooks' },
    });
    expect(created).toMatchObject({
      id: expect.any(String),
      url: 'https://localhost:9/hook',
      secret: expect.any(String),
    });
    const listed = await tm.webhooks.list();
    expect(listed.items.map((w) => w.id)).toEqual([created.id]);
    expect(listed.items[0]).not.toHaveProperty('secret');
    const deliveries = await tm.webhooks.deliveries(created.id);
    expect(deliveries).toEqual({ items: expect.any(Array), nextCursor: null });
    expect(await tm.webhooks.remove(created.id)).toEqual({ ok: true });
    expect(await tm.webhooks.remove(created.id).catch((e: unknown) => e)).toMatchObject({ status: 404 });
  });
});

describe('operator', () => {
  test(
    'default: a dispute resolved with ADMIN_TOKEN, the conversation read and written, the ' +
      'sweep run with CRON_SECRET',
    async () => {
      const client = sdkClient(server, await clientWallet(server, USDC));
      const { tm: agent } = await agentClient();
      const mission = await client.fundAndCreateMission({
        title: 'Disputed',
        description: 'Three rounds',
        reward: USDC.toString(),
        deadline: deadlineIn(6),
      });
      await agent.missions.accept(mission.id);
      let state = '';
      for (let round = 1; round <= 3; round++) {
        await agent.missions.submit(mission.id, { note: `Round ${round}` });
        state = (await client.missions.contest(mission.id, { reason: `Not yet (${round})` })).status;
      }
      expect(state).toBe('DISPUTED'); // MAX_CONTESTS (2) rounds, then a dispute

      const operator = sdkClient(server, undefined, { adminToken: ADMIN_TOKEN, cronSecret: CRON_SECRET });
      await operator.operator.comment(mission.id, { body: 'Looking into it' });
      expect((await operator.operator.comments(mission.id).toArray()).map((c) => c.body)).toContain('Looking into it');
      expect(await operator.operator.resolve(mission.id, { outcome: 'CANCELLED', note: 'Refunded' })).toMatchObject({
        id: mission.id,
        status: 'CANCELLED',
      });
      expect(await operator.operator.sweep()).toEqual(expect.any(Object));
      expect(await operator.operator.retrySettlement(crypto.randomUUID()).catch((e: unknown) => e)).toMatchObject({
        status: 404,
      });
    },
  );

  test(
    'error: operator calls without the secret fail before any request; a wrong secret is ' + "the API's refusal",
    async () => {
      const noSecret = await sdkClient(server, undefined)
        .operator.sweep()
        .catch((e: unknown) => e);
      expect(noSecret).toMatchObject({ status: 0, error: expect.stringMatching(/cronSecret/) });
      const wrong = await sdkClient(server, undefined, { adminToken: 'x'.repeat(40) })
        .operator.retrySettlement(crypto.randomUUID())
        .catch((e: unknown) => e);
      expect(wrong).toBeInstanceOf(TaskmarketError);
      expect([401, 403]).toContain((wrong as TaskmarketError).status);
    },
  );

  test('default: the served OpenAPI document and liveness', async () => {
    const tm = sdkClient(server, undefined);
    expect(await tm.liveness()).toEqual({ ok: true });
    const document = await tm.openApi();
    expect(document).toMatchObject({ openapi: '3.1.0' });
  });
});
