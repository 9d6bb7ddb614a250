import { describe, expect, test } from 'vitest';
import { POST as createRoute } from '@/app/api/missions/route';
import { call } from '../support/http';
import { useTestEnvironment, BOOKKEEPING } from '../support/environment';
import { eventsOf, inDays, missionCountOf, missionInput, newAgent, newClient } from '../support/missions';
import { signIn } from '../support/wallets';

useTestEnvironment(BOOKKEEPING);

const create = (token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
  call(createRoute, { token, body, headers });

describe('POST /api/missions', () => {
  test('default: a client posts an OPEN mission and gets the whole mission object back', async () => {
    const client = await newClient();
    const input = missionInput({ tags: ['Vision', 'vision', ' labeling '], category: 'Data' });
    const response = await create(client.token, input);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: input.title,
      description: input.description,
      category: 'data',
      tags: ['vision', 'labeling'],
      reward: '25000000',
      deadline: new Date(input.deadline as string).toISOString(),
      status: 'OPEN',
      assignment: 'FIRST_COME',
      client: { walletAddress: client.address },
      agent: null,
      onChainTaskId: null,
      attachments: [],
      submission: null,
      contests: [],
      bounty: null,
      milestones: [],
      released: '0',
      settlement: null,
      settlementOffer: null,
      offering: null,
      requirements: null,
      criteria: [],
      criteriaHash: null,
      autoApprove: null,
      verdicts: null,
      reviewDeadline: null,
      bumpCount: 0,
      bumpedAt: null,
      createdAt: expect.any(String),
      updatedAt: response.body.createdAt,
      acceptedAt: null,
      submittedAt: null,
      completedAt: null,
      cancelledAt: null,
      // docs/api.md#next-actions: what its owner may do now, from the transition table.
      actions: [
        { action: 'bump', method: 'POST', path: `/api/missions/${response.body.id}/bump` },
        { action: 'cancel', method: 'POST', path: `/api/missions/${response.body.id}/cancel` },
      ],
    });
    expect(await eventsOf(response.body.id)).toMatchObject([
      { action: 'create', actor: 'OWNER', fromStatus: null, toStatus: 'OPEN' },
    ]);
  });

  test('behavior: the largest uint256 reward is kept exactly', async () => {
    const client = await newClient();
    const max = ((1n << 256n) - 1n).toString();
    expect((await create(client.token, missionInput({ reward: max }))).body.reward).toBe(max);
  });

  test('error: every invalid field is named in details', async () => {
    const client = await newClient();
    const response = await create(client.token, {
      title: '',
      description: 'x'.repeat(10_001),
      category: '<script>',
      tags: Array.from({ length: 11 }, (_, i) => `t${i}`),
      reward: '0',
      deadline: 'tomorrow',
    });
    expect(response.status).toBe(400);
    const fields = response.body.details.map((d: string) => d.split(':')[0]);
    expect(fields).toEqual(expect.arrayContaining(['title', 'description', 'category', 'tags', 'reward', 'deadline']));
    expect(await missionCountOf(client.id)).toBe(0);
  });

  test('error: rewards must be positive decimal strings within uint256', async () => {
    const client = await newClient();
    for (const reward of ['0', '-1', '1.5', '1e6', ' 5', (1n << 256n).toString(), 5, '', '0x10']) {
      const response = await create(client.token, missionInput({ reward }));
      expect({ reward, status: response.status }).toEqual({ reward, status: 400 });
      expect(response.body.details[0]).toMatch(/^reward: /);
    }
  });

  test('error: the deadline must be in the future and at most a year ahead', async () => {
    const client = await newClient();
    expect((await create(client.token, missionInput({ deadline: inDays(-1) }))).body.details).toEqual([
      'deadline: must be in the future',
    ]);
    expect((await create(client.token, missionInput({ deadline: inDays(367) }))).body.details).toEqual([
      'deadline: must be at most one year ahead',
    ]);
    expect((await create(client.token, missionInput({ deadline: '2031-01-01' }))).status).toBe(400);
    expect((await create(client.token, missionInput({ deadline: inDays(364) }))).status).toBe(201);
  });

  test('error: fields a client may not set are 400', async () => {
    const client = await newClient();
    for (const extra of [
      { status: 'COMPLETED' },
      { agent: { walletAddress: client.address } },
      { client: {} },
      { id: crypto.randomUUID() },
      { bumpCount: 9 },
    ]) {
      const response = await create(client.token, missionInput(extra));
      expect(response).toMatchObject({ status: 400, body: { error: 'Validation failed' } });
    }
    expect(await missionCountOf(client.id)).toBe(0);
  });

  test('behavior: onChainTaskId is optional, a non-negative integer (number or digits), and unique', async () => {
    const client = await newClient();
    const taskId = Math.floor(Math.random() * 1e12);
    expect((await create(client.token, missionInput({ onChainTaskId: taskId }))).body.onChainTaskId).toBe(taskId);
    expect((await create(client.token, missionInput({ onChainTaskId: String(taskId + 1) }))).body.onChainTaskId).toBe(
      taskId + 1,
    );
    const duplicate = await create(client.token, missionInput({ onChainTaskId: taskId }));
    expect(duplicate).toMatchObject({
      status: 400,
      body: { details: ['onChainTaskId: already linked to another mission'] },
    });
    for (const bad of [-1, 1.5, '12a', 2 ** 60, null]) {
      expect((await create(client.token, missionInput({ onChainTaskId: bad }))).status).toBe(400);
    }
  });

  test('error: agents and anonymous callers cannot post', async () => {
    const agent = await newAgent();
    expect(await create(agent.token, missionInput())).toMatchObject({
      status: 403,
      body: { error: 'Client role required' },
    });
    expect((await create(undefined, missionInput())).status).toBe(401);
  });

  test('error: malformed JSON is 400, an oversized body 413', async () => {
    const client = await newClient();
    expect(await create(client.token, '{"title":')).toMatchObject({ status: 400, body: { error: 'Malformed JSON' } });
    expect((await create(client.token, JSON.stringify(missionInput({ description: 'x'.repeat(70_000) })))).status).toBe(
      413,
    );
  });

  test('behavior: a cookie-authenticated post needs an allowed Origin', async () => {
    const { cookie } = await signIn();
    expect((await call(createRoute, { cookie, body: missionInput() })).status).toBe(403);
    const ok = await call(createRoute, {
      cookie,
      body: missionInput(),
      headers: { origin: 'https://app.example.com' },
    });
    expect(ok.status).toBe(201);
  });
});

describe('Idempotency-Key', () => {
  test('default: a repeated key answers the first mission and creates nothing new', async () => {
    const client = await newClient();
    const key = { 'idempotency-key': `k-${crypto.randomUUID()}` };
    const input = missionInput();
    const first = await create(client.token, input, key);
    const second = await create(client.token, input, key);
    expect(second).toMatchObject({ status: 201, body: { id: first.body.id, title: first.body.title } });
    expect(await missionCountOf(client.id)).toBe(1);
    const other = await create(client.token, { ...input, title: 'Something else' }, key);
    expect(other).toMatchObject({
      status: 422,
      body: { error: 'Idempotency-Key was already used for a different request' },
    });
    expect(await missionCountOf(client.id)).toBe(1);
    expect((await create(client.token, missionInput(), { 'idempotency-key': 'another' })).body.id).not.toBe(
      first.body.id,
    );
  });

  test('behavior: the same key sent five times at once creates one mission', async () => {
    const client = await newClient();
    const key = { 'idempotency-key': crypto.randomUUID() };
    const input = missionInput();
    const responses = await Promise.all(Array.from({ length: 5 }, () => create(client.token, input, key)));
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect(await missionCountOf(client.id)).toBe(1);
  });

  test('behavior: keys belong to their user; a malformed key is 400', async () => {
    const [a, b] = await Promise.all([newClient(), newClient()]);
    const key = { 'idempotency-key': 'shared-key' };
    expect((await create(a.token, missionInput(), key)).body.id).not.toBe(
      (await create(b.token, missionInput(), key)).body.id,
    );
    expect((await create(a.token, missionInput(), { 'idempotency-key': 'has space' })).status).toBe(400);
  });
});

describe('rate limit', () => {
  test('error: the 21st mission within the hour is 429 with Retry-After', async () => {
    const client = await newClient();
    for (let i = 0; i < 20; i += 1) {
      const response = await create(client.token, missionInput({ title: `Mission ${i}` }));
      expect(response.status).toBe(201);
      expect(response.headers.get('ratelimit-limit')).toBe('20');
    }
    const refused = await create(client.token, missionInput());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await missionCountOf(client.id)).toBe(20);
  });
});
