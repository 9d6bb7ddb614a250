// Criteria a machine checks, through the routes (docs/api.md#checked-criteria, docs/api.md#auto-approval): a
// mission whose criterion requires result.json to match a schema is COMPLETED and paid on-chain at submit
// when it does, and stays SUBMITTED with the failing detail when it does not; an automatic approval moves
// money only on terms the person approved (their post, their funding page, or the token's release limit);
// bad checks are refused at posting. Real anvil (escrow v5), real signatures, real uploads.
import { eq } from 'drizzle-orm';
import type { Hex, PrivateKeyAccount } from 'viem';
import { describe, expect, test } from 'vitest';
import { GET as entriesRoute, POST as enterRoute } from '@/app/api/missions/[id]/entries/route';
import { GET as fundingGet, POST as fundingPost } from '@/app/api/missions/[id]/funding/route';
import { GET as timelineRoute } from '@/app/api/missions/[id]/timeline/route';
import { POST as submitRoute } from '@/app/api/missions/[id]/submit/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { DELETE as deleteToken } from '@/app/api/tokens/[id]/route';
import { POST as createToken } from '@/app/api/tokens/route';
import { getDb } from '@/lib/db/client';
import { grantReleases } from '@/lib/db/schema';
import { useTestEnvironment } from '../support/environment';
import { claimableOnChain, fundTask, taskOnChain } from '../support/escrow';
import { call } from '../support/http';
import { act, getMission, inDays, missionInput, newAgent, ok, type Party } from '../support/missions';
import { upload } from '../support/multipart';
import { mintUsdc } from '../support/offerings';
import { newWallet, signIn } from '../support/wallets';

useTestEnvironment({ PLATFORM_FEE_BPS: '1000', WRITE_RATE_LIMIT_PER_MINUTE: '100000', MINT_WAIT_MS: '2000' });

const REWARD = 20_000_000n;

const SCHEMA = {
  type: 'object',
  required: ['boxes'],
  properties: {
    boxes: { type: 'array', items: { type: 'object', required: ['x'], properties: { x: { type: 'number' } } } },
  },
};
const CRITERIA = [
  { text: 'result.json lists the boxes', check: { type: 'jsonSchema', file: 'result.json', schema: SCHEMA } },
  { text: 'A result file is delivered', check: { type: 'file', name: 'result.json', mime: 'application/json' } },
];

interface Person extends Party {
  wallet: PrivateKeyAccount;
}

async function person(): Promise<Person> {
  const wallet = newWallet();
  const { token, user } = await signIn(wallet);
  return { wallet, token, address: user.walletAddress, id: user.id };
}

/** A personal token of `owner`'s that may post (and approve what it posted), with a release limit. */
async function tokenOf(owner: Party, releaseLimit: string) {
  const answer = await call(createToken, {
    method: 'POST',
    token: owner.token,
    body: { name: 'assistant', scopes: ['missions:post'], releaseLimit },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { token: answer.body.token as string, grantId: answer.body.grant.id as string };
}

const post = (token: string, body: Record<string, unknown>) =>
  call(createRoute, { token, body: missionInput({ reward: REWARD.toString(), ...body }) });

/** A checked mission on the person's own task, posted by `token` (theirs, or a token of theirs). */
async function checkedMission(owner: Person, token = owner.token, extra: Record<string, unknown> = {}) {
  const taskId = await fundTask(owner.wallet, REWARD);
  const created = await post(token, { onChainTaskId: taskId, criteria: CRITERIA, autoApprove: 'onChecks', ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.id as string, taskId };
}

/** The agent delivers result.json with `content` (multipart, as a deliverable file). */
function deliver(agent: Party, id: string, content: unknown) {
  return upload(submitRoute, {
    token: agent.token,
    params: { id },
    fields: { note: 'Boxes attached.' },
    files: [{ filename: 'result.json', contentType: 'application/json', content: JSON.stringify(content) }],
  });
}

async function accepted(id: string) {
  const agent = await newAgent();
  await ok(act('accept', agent, id));
  return agent;
}

describe('a mission whose criteria a machine checks', () => {
  test('result.json matching the schema: COMPLETED at submit and paid on-chain, the checks shown', async () => {
    const client = await person();
    const { id, taskId } = await checkedMission(client);
    const shown = (await getMission(client, id)).body;
    expect(shown.autoApprove).toBe('onChecks');
    expect(shown.criteria[0]).toEqual({ number: 1, text: CRITERIA[0]!.text, check: CRITERIA[0]!.check });
    const agent = await accepted(id);

    const answer = await deliver(agent, id, { boxes: [{ x: 1 }, { x: 2.5 }] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.status).toBe('COMPLETED');
    expect(answer.body.submission.checks).toEqual([
      { criterion: 1, passed: true, detail: expect.any(String), checkedAt: expect.any(String) },
      { criterion: 2, passed: true, detail: expect.any(String), checkedAt: expect.any(String) },
    ]);
    // The escrow paid the agent the reward less the 10 % fee, by the request itself.
    expect((await taskOnChain(taskId)).state).toBe(2);
    expect(await claimableOnChain(agent.address as Hex)).toBe((REWARD * 9_000n) / 10_000n);
    // The event log: the submission with its checks, then the client's approval, given in advance.
    const events = (await call(timelineRoute, { token: client.token, params: { id } })).body.events;
    const [submitted, approved] = events.slice(-2);
    expect(submitted).toMatchObject({
      event: 'submit',
      to: 'SUBMITTED',
      data: { checks: answer.body.submission.checks },
    });
    expect(approved).toMatchObject({ event: 'approve', from: 'SUBMITTED', to: 'COMPLETED' });
  });

  test('result.json not matching: SUBMITTED with the failing detail, the review window as always', async () => {
    const client = await person();
    const { id, taskId } = await checkedMission(client);
    const agent = await accepted(id);
    const answer = await deliver(agent, id, { boxes: [{ x: 'left' }] });
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('SUBMITTED');
    expect(answer.body.reviewDeadline).not.toBeNull();
    const [schemaCheck, fileCheck] = answer.body.submission.checks;
    expect(schemaCheck).toMatchObject({ criterion: 1, passed: false });
    expect(schemaCheck.detail).toMatch(/\/boxes\/0\/x/);
    expect(fileCheck).toMatchObject({ criterion: 2, passed: true });
    expect((await taskOnChain(taskId)).state).toBe(1); // still Funded
    // The client still decides: its approve works as on any submission.
    expect((await act('approve', client, id)).status).toBe(200);
  });

  test('no deliverable of that name fails both checks, each saying so', async () => {
    const client = await person();
    const { id } = await checkedMission(client);
    const agent = await accepted(id);
    const answer = await act('submit', agent, id, { note: 'Forgot the file.' });
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('SUBMITTED');
    expect(answer.body.submission.checks.map((c: { passed: boolean }) => c.passed)).toEqual([false, false]);
    expect(answer.body.submission.checks[0].detail).toMatch(/result\.json/);
  });
});

describe('an approval on checks moves money only on terms the person approved', () => {
  test("a delegated post on the person's task: within its grant's release limit at submit, else it waits", async () => {
    const client = await person();
    const none = await tokenOf(client, '0');
    const waiting = await checkedMission(client, none.token);
    const first = await accepted(waiting.id);
    const held = await deliver(first, waiting.id, { boxes: [] });
    expect(held.body.status).toBe('SUBMITTED');
    expect(held.body.submission.checks.every((c: { passed: boolean }) => c.passed)).toBe(true);
    expect((await taskOnChain(waiting.taskId)).state).toBe(1);

    const enough = await tokenOf(client, REWARD.toString());
    const paid = await checkedMission(client, enough.token);
    const second = await accepted(paid.id);
    expect((await deliver(second, paid.id, { boxes: [] })).body.status).toBe('COMPLETED');
    expect((await taskOnChain(paid.taskId)).state).toBe(2);
    // A grant revoked before the delivery moves nothing, whatever its limit said.
    const revoked = await tokenOf(client, REWARD.toString());
    const orphan = await checkedMission(client, revoked.token);
    const revoke = await call(deleteToken, { method: 'DELETE', token: client.token, params: { id: revoked.grantId } });
    expect(revoke.status).toBe(200);
    const third = await accepted(orphan.id);
    expect((await deliver(third, orphan.id, { boxes: [] })).body.status).toBe('SUBMITTED');
    expect((await taskOnChain(orphan.taskId)).state).toBe(1);
    // Counted against the grant like its approve: the whole task, once.
    const counted = await (await getDb()).select().from(grantReleases).where(eq(grantReleases.grantId, enough.grantId));
    expect(counted.map((r) => r.amount)).toEqual([REWARD.toString()]);
  });

  test('a delegated token’s post funded on the funding page: the person’s signature there is the yes', async () => {
    const client = await person();
    await mintUsdc(client.wallet.address, REWARD);
    const none = await tokenOf(client, '0');
    const created = await post(none.token, { criteria: CRITERIA, autoApprove: 'onChecks' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect(created.body.status).toBe('AWAITING_FUNDING');
    // The person, signed in on the page, signs the funding that states the automatic payment.
    const funding = (await call(fundingGet, { token: client.token, params: { id } })).body;
    const m = funding.typedData.message;
    const signature = await client.wallet.signTypedData({
      domain: funding.typedData.domain,
      types: funding.typedData.types,
      primaryType: 'ReceiveWithAuthorization',
      message: { ...m, value: BigInt(m.value), validAfter: BigInt(m.validAfter), validBefore: BigInt(m.validBefore) },
    } as never);
    expect((await call(fundingPost, { token: client.token, params: { id }, body: { signature } })).status).toBe(202);
    const opened = (await getMission(client, id)).body;
    expect(opened.status).toBe('OPEN');
    const agent = await accepted(id);
    expect((await deliver(agent, id, { boxes: [] })).body.status).toBe('COMPLETED');
    expect((await taskOnChain(opened.onChainTaskId)).state).toBe(2);
  });
});

describe('checks refused at posting', () => {
  test('autoApprove needs a check on every criterion, and no bounty', async () => {
    const client = await person();
    const unchecked = await post(client.token, { criteria: [CRITERIA[0], 'Looks right'], autoApprove: 'onChecks' });
    expect(unchecked.status).toBe(400);
    expect(unchecked.body.details.join(' ')).toMatch(/autoApprove: onChecks needs a check on every criterion \(2/);
    const bare = await post(client.token, { autoApprove: 'onChecks' });
    expect(bare.status).toBe(400);
  });

  test('an httpGet on a loopback, private or plain-http address, and a schema with a remote $ref', async () => {
    const client = await person();
    for (const url of [
      'https://127.0.0.1/health',
      'https://10.0.0.7/health',
      'https://localhost/x',
      'http://example.com/',
    ]) {
      const refused = await post(client.token, {
        criteria: [{ text: 'The site is up', check: { type: 'httpGet', url } }],
      });
      expect(refused.status, url).toBe(400);
      expect(refused.body.details.join(' '), url).toMatch(/^criteria\.0\.check\.url/);
    }
    const remote = await post(client.token, {
      criteria: [
        { text: 'x', check: { type: 'jsonSchema', file: 'a.json', schema: { $ref: 'https://evil.example/s.json' } } },
      ],
    });
    expect(remote.status).toBe(400);
    expect(remote.body.details.join(' ')).toMatch(/^criteria\.0\.check\.schema/);
  });
});

test("a bounty entry's files are checked too, and the entry shows what was found", async () => {
  const client = await person();
  const taskId = await fundTask(client.wallet, REWARD);
  const created = await post(client.token, {
    onChainTaskId: taskId,
    assignment: 'BOUNTY',
    deadline: inDays(2),
    criteria: [CRITERIA[0]],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  const agent = await newAgent();
  const entered = await upload(enterRoute, {
    token: agent.token,
    params: { id },
    fields: { note: 'My boxes.' },
    files: [{ filename: 'result.json', contentType: 'application/json', content: '{"boxes":"none"}' }],
  });
  expect(entered.status, JSON.stringify(entered.body)).toBe(201);
  expect(entered.body.checks).toEqual([
    { criterion: 1, passed: false, detail: expect.stringMatching(/\/boxes/), checkedAt: expect.any(String) },
  ]);
  const listed = (await call(entriesRoute, { token: client.token, params: { id } })).body;
  expect(listed.items[0].checks).toEqual(entered.body.checks);
});
