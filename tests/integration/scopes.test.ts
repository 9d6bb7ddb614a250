// Scopes on every route group (docs/api.md#tokens), for OAuth access tokens and personal access tokens
// alike: a delegated token outside its scopes gets 403 naming the scope, and changes nothing; the
// token and grant routes take a wallet sign-in only. Personal access tokens: shown once, stored
// hashed, at most 20, revoked everywhere at once.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { GET as earnings } from '@/app/api/agents/me/earnings/route';
import { POST as logout } from '@/app/api/auth/logout/route';
import { GET as me } from '@/app/api/auth/me/route';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
import { POST as accept } from '@/app/api/missions/[id]/accept/route';
import { DELETE as deleteToken } from '@/app/api/tokens/[id]/route';
import { GET as tokensList, POST as createToken } from '@/app/api/tokens/route';
import { ROUTE_TABLE } from '@/app/api/documented-routes';
import { getDb } from '@/lib/db/client';
import { METHODS, type Method } from '@/lib/http/methods';
import { grants } from '@/lib/db/schema';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { createMission as seedMission, missionInput, newClient } from '../support/missions';
import { API_RESOURCE, connect, ORIGIN, personalToken, type User } from '../support/oauth';
import { signIn } from '../support/wallets';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

type Handler = Parameters<typeof call>[0];
type Case = [label: string, scope: string, role: 'client' | 'agent', body?: unknown];

const id = randomUUID();
// Every user route group, the scope it needs, and who may call it at all (the role check comes first);
// each label's handler is the route table's (handlerOf), so a case names a route that exists.
const CASES: Case[] = [
  ['GET /api/missions', 'missions:read', 'agent'],
  ['GET /api/missions/{id}', 'missions:read', 'agent'],
  ['GET /api/missions/{id}/files/{fileId}', 'missions:read', 'agent'],
  ['GET /api/missions/{id}/comments', 'missions:read', 'agent'],
  ['GET /api/missions/{id}/applications', 'missions:read', 'client'],
  ['GET /api/missions/{id}/entries', 'missions:read', 'agent'],
  ['GET /api/account/stats', 'missions:read', 'client'],
  ['GET /api/enterprise/analytics', 'missions:read', 'client'],
  ['POST /api/missions/{id}/accept', 'missions:work', 'agent'],
  ['POST /api/missions/{id}/apply', 'missions:work', 'agent', { pitch: 'me' }],
  ['POST /api/missions/{id}/submit', 'missions:work', 'agent', { note: 'done' }],
  ['POST /api/missions/{id}/entries', 'missions:work', 'agent', { note: 'my entry' }],
  ['POST /api/auth/register-agent', 'missions:work', 'client'],
  ['POST /api/agents/me/erc8004', 'missions:work', 'agent', { agentId: '0' }],
  ['DELETE /api/agents/me/erc8004', 'missions:work', 'agent'],
  ['POST /api/missions/{id}/comments', 'missions:work or missions:post', 'agent', { body: 'a question' }],
  ['POST /api/missions', 'missions:post', 'client', missionInput()],
  ['POST /api/missions/{id}/approve', 'missions:post', 'client'],
  ['POST /api/missions/{id}/contest', 'missions:post', 'client', { reason: 'no' }],
  // docs/api.md#client-reviews: the owner reviews its agent (missions:post), the agent its client (missions:work).
  ['POST /api/missions/{id}/review', 'missions:post or missions:work', 'client', { rating: 5 }],
  ['PATCH /api/missions/{id}/review', 'missions:post or missions:work', 'client', { rating: 4 }],
  ['GET /api/missions/{id}/review', 'missions:read', 'client'],
  ['POST /api/clients/me/erc8004', 'missions:post', 'client', { agentId: '0' }],
  ['DELETE /api/clients/me/erc8004', 'missions:post', 'client'],
  [
    'POST /api/missions/{id}/award',
    'missions:post',
    'client',
    { winners: ['0x0000000000000000000000000000000000000001'] },
  ],
  [
    'POST /api/missions/{id}/assign',
    'missions:post',
    'client',
    { agent: '0x0000000000000000000000000000000000000001' },
  ],
  ['POST /api/missions/{id}/cancel', 'missions:post', 'client'],
  ['POST /api/missions/{id}/bump', 'missions:post', 'client'],
  ['GET /api/missions/{id}/funding', 'missions:post', 'client'],
  ['POST /api/missions/{id}/funding', 'missions:post', 'client', { onChainTaskId: 1 }],
  ['POST /api/missions/{id}/reopen', 'missions:post', 'client'],
  ['POST /api/missions/{id}/decline', 'missions:work', 'agent', {}],
  ['GET /api/missions/{id}/timeline', 'missions:read', 'client'],
  // docs/api.md#settlement-offers: either party, each with its side's scope.
  ['POST /api/missions/{id}/settlement-offers', 'missions:post or missions:work', 'client', { agentAmount: '1' }],
  [
    'POST /api/missions/{id}/settlement-offers/{offerId}',
    'missions:post or missions:work',
    'client',
    { decision: 'reject' },
  ],
  ['GET /api/offerings/{id}', 'missions:read', 'agent'],
  ['POST /api/offerings', 'missions:work', 'agent', { title: 't', description: 'd', price: '1', slaHours: 1 }],
  ['PATCH /api/offerings/{id}', 'missions:work', 'agent', { price: '2' }],
  ['DELETE /api/offerings/{id}', 'missions:work', 'agent'],
  ['POST /api/offerings/{id}/orders', 'missions:post', 'client', {}],
  ['GET /api/agents/me/earnings', 'earnings:claim', 'agent'],
  ['POST /api/agents/me/claim', 'earnings:claim', 'agent'],
  ['GET /api/webhooks', 'webhooks', 'client'],
  ['POST /api/webhooks', 'webhooks', 'client', { url: 'https://hooks.example/x', events: ['mission.created'] }],
  ['DELETE /api/webhooks/{id}', 'webhooks', 'client'],
  ['GET /api/webhooks/{id}/deliveries', 'webhooks', 'client'],
];
const SESSION_ONLY: [label: string, body?: unknown][] = [
  ['POST /api/tokens', { name: 'more', scopes: ['missions:read'] }],
  ['GET /api/tokens'],
  ['GET /api/grants'],
  ['DELETE /api/tokens/{id}'],
  ['DELETE /api/grants/{id}'],
  ['PATCH /api/grants/{id}', { releaseLimit: '1' }],
  ['GET /api/confirmations'],
  ['POST /api/confirmations/{id}', { decision: 'approve' }],
  ['POST /api/oauth/authorize'],
  ['PATCH /api/account/profile', { displayName: 'x' }],
  ['PUT /api/missions/{id}/criteria', { criteria: ['x'] }],
  // docs/api.md#standing-allowance: the person's own wallet sign-in, never a delegated token.
  ['GET /api/account/allowance'],
  ['POST /api/account/allowance', {}],
  ['GET /api/account/allowance/revocation'],
  ['POST /api/account/allowance/revocation', { signature: '0x' }],
];

/** `POST /api/missions/{id}/accept` → that method of the route table's `/api/missions/[id]/accept`. */
function handlerOf(label: string): Handler {
  const [method, path] = label.split(' ') as [Method, string];
  const module = ROUTE_TABLE.find(([template]) => template.replace(/\[(\w+)\]/g, '{$1}') === path)?.[1];
  const handler = module?.[method];
  if (!handler) throw new Error(`${label} is no route of app/api/route-table.ts`);
  return handler as Handler;
}

test('behavior: every route a user calls is listed above with its scope, or takes any scope', () => {
  const listed = new Set([...CASES, ...SESSION_ONLY].map(([label]) => label));
  const unlisted = ROUTE_TABLE.flatMap(([template, module]) =>
    METHODS.flatMap((method) => {
      const options = module[method]?.options;
      const label = `${method} ${template.replace(/\[(\w+)\]/g, '{$1}')}`;
      return options?.auth && options.scope !== 'any' && !listed.has(label) ? [label] : [];
    }),
  );
  expect(unlisted).toEqual([]);
});

let agent: User;
beforeAll(async () => {
  agent = await signIn();
  const promoted = await call(registerAgent, { method: 'POST', token: agent.token });
  agent = { ...agent, token: promoted.body.token };
});

const send = (label: string, token: string, body?: unknown) =>
  call(handlerOf(label), {
    method: label.split(' ')[0],
    token,
    body,
    params: { id, fileId: randomUUID(), offerId: randomUUID(), address: agent.wallet.address },
  });

describe.each([
  // For the REST API: one issued for /api/mcp, the default, is refused here (docs/api.md#audience).
  [
    'an OAuth access token',
    async (user: User, scopes: string[]) => (await connect(scopes.join(' '), user, API_RESOURCE)).tokens.access_token,
  ],
  ['a personal access token', async (user: User, scopes: string[]) => (await personalToken(user, scopes)).token],
])('%s', (_kind, tokenFor) => {
  // The one scope that none of the cases need: each case sees its own scope missing.
  const unrelated = (scope: string) => (scope === 'webhooks' ? 'missions:read' : 'webhooks');

  test.each(CASES)(
    'error: %s without its scope is 403 naming %s, with the step-up challenge',
    async (label, scope, role, body) => {
      // A new client each time: a user holds at most 20 personal access tokens.
      const held = unrelated(scope);
      const token = await tokenFor(role === 'agent' ? agent : await signIn(), [held]);
      const answer = await send(label, token, body);
      expect(answer.status).toBe(403);
      expect(answer.body.error).toBe(`Token lacks the ${scope} scope`);
      // docs/api.md#step-up: what it holds plus the one needed (the first of alternatives), in the scopes' order.
      const needed = scope.split(' or ')[0]!;
      const wanted = ['missions:read', 'missions:work', 'missions:post', 'earnings:claim', 'webhooks'].filter(
        (s) => s === held || s === needed,
      );
      expect(answer.headers.get('www-authenticate')).toBe(
        `Bearer error="insufficient_scope", scope="${wanted.join(' ')}", ` +
          `resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/api"`,
      );
    },
  );

  test.each(SESSION_ONLY)('error: %s needs a wallet sign-in', async (label, body) => {
    const token = await tokenFor(await signIn(), [
      'missions:read',
      'missions:work',
      'missions:post',
      'earnings:claim',
      'webhooks',
    ]);
    const answer = await send(label, token, body);
    expect(answer).toMatchObject({ status: 403, body: { error: expect.stringContaining('wallet sign-in') } });
  });

  test('behavior: within its scopes the token works like a sign-in', async () => {
    const owner = await newClient();
    const posted = await seedMission(owner);
    const token = await tokenFor(agent, ['missions:work']);
    expect((await send('GET /api/auth/me', token)).status).toBe(200);
    const taken = await call(accept, { method: 'POST', token, params: { id: posted.id } });
    expect(taken).toMatchObject({ status: 200, body: { status: 'ACCEPTED' } });
  });
});

describe('personal access tokens', () => {
  test('default: shown once, stored hashed, listed by hint', async () => {
    const user = await signIn();
    const created = await personalToken(user, ['missions:read'], 'my laptop agent');
    expect(created.token).toMatch(/^tm_[A-Za-z0-9_-]{43}$/);
    const [row] = await (await getDb()).select().from(grants).where(eq(grants.id, created.grant.id));
    expect(JSON.stringify(row)).not.toContain(created.token.slice(3));
    const listed = await call(tokensList, { token: user.token });
    expect(listed.body.items).toEqual([
      expect.objectContaining({
        name: 'my laptop agent',
        kind: 'token',
        scopes: ['missions:read'],
        tokenHint: created.token.slice(0, 7),
      }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(created.token);
    expect(await call(me, { token: created.token })).toMatchObject({
      status: 200,
      body: { user: { id: user.user.id } },
    });
    const used = await call(tokensList, { token: user.token });
    expect(used.body.items[0].lastUsedAt).not.toBeNull();
  });

  test('behavior: deleting a token refuses it at once; another user cannot delete it', async () => {
    const user = await signIn();
    const { token, grant } = await personalToken(user, ['missions:read']);
    const stranger = await signIn();
    expect(
      (await call(deleteToken, { method: 'DELETE', token: stranger.token, params: { id: grant.id } })).status,
    ).toBe(404);
    expect((await call(me, { token })).status).toBe(200);
    expect((await call(deleteToken, { method: 'DELETE', token: user.token, params: { id: grant.id } })).status).toBe(
      200,
    );
    expect(await call(me, { token })).toMatchObject({ status: 401, body: { error: 'Invalid or expired token' } });
  });

  test('behavior: at most 20 live tokens a user, even when created at once', async () => {
    const user = await signIn();
    const answers = await Promise.all(
      Array.from({ length: 22 }, (_, i) =>
        call(createToken, { method: 'POST', token: user.token, body: { name: `t${i}`, scopes: ['missions:read'] } }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(2);
  });

  test('error: unknown scopes, no scope and a lifetime out of range are 400', async () => {
    const user = await signIn();
    for (const body of [
      { name: 'x', scopes: ['admin'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['missions:read'], expiresIn: 60 },
      { name: 'x', scopes: ['missions:read', 'missions:read'] },
      { name: '', scopes: ['missions:read'] },
    ]) {
      expect((await call(createToken, { method: 'POST', token: user.token, body })).status).toBe(400);
    }
    expect((await call(tokensList, { token: user.token })).body.items).toEqual([]);
  });

  test('behavior: an expired token is refused', async () => {
    const user = await signIn();
    const { token, grant } = await personalToken(user, ['missions:read']);
    await (await getDb())
      .update(grants)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(grants.id, grant.id));
    expect((await call(me, { token })).status).toBe(401);
  });

  test('behavior: logout with a personal token revokes it', async () => {
    const user = await signIn();
    const { token } = await personalToken(user, ['missions:read']);
    expect((await call(logout, { method: 'POST', token })).status).toBe(200);
    expect((await call(me, { token })).status).toBe(401);
  });

  test('behavior: becoming an agent through a delegated token keeps its scopes', async () => {
    const user = await signIn();
    const { token } = await personalToken(user, ['missions:work']);
    const promoted = await call(registerAgent, { method: 'POST', token });
    expect(promoted.status).toBe(200);
    expect(
      (
        await call(createToken, {
          method: 'POST',
          token: promoted.body.token,
          body: { name: 'x', scopes: ['webhooks'] },
        })
      ).status,
    ).toBe(403);
    expect((await call(earnings, { token: promoted.body.token })).status).toBe(403);
  });
});
