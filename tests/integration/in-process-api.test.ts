// The remote MCP tools' in-process API calls (app/api/mcp/api-routes.ts): a read or a write made with
// the MCP request's own credential carries the caller the MCP route authenticated (one token check
// per tool call); another credential is authenticated by the route as over HTTP.
import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import { inProcessFetch } from '@/app/api/mcp/api-routes';
import { GET as getMe } from '@/app/api/auth/me/route';
import type { Caller } from '@/lib/oauth/caller';
import { metrics } from '@/lib/observability/metrics';
import { useTestEnvironment } from '../support/environment';
import { signIn } from '../support/wallets';

useTestEnvironment();

/** The MCP request and the caller its route found — here an AGENT, while the database says CLIENT. */
async function mcpCall() {
  const { token, user } = await signIn();
  const outer = new Request('http://localhost/api/mcp', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  const caller = { user: { ...user, role: 'AGENT' }, passport: null, via: 'bearer' } as Caller;
  return { token, user, fetch: inProcessFetch(outer, caller) };
}

test('behavior: a read with the MCP request’s token carries the caller already authenticated', async () => {
  const { token, user, fetch } = await mcpCall();
  const me = await fetch('http://localhost/api/auth/me', { headers: { authorization: `Bearer ${token}` } });
  expect(await me.json()).toMatchObject({ user: { id: user.id, role: 'AGENT' } });
});

test('behavior: a read with another credential is authenticated by the route', async () => {
  const { fetch } = await mcpCall();
  const other = await signIn();
  const me = await fetch('http://localhost/api/auth/me', { headers: { authorization: `Bearer ${other.token}` } });
  expect(await me.json()).toMatchObject({ user: { id: other.user.id, role: 'CLIENT' } });
});

test('behavior: a write with the MCP request’s token carries the caller already authenticated', async () => {
  const { token, fetch } = await mcpCall();
  // The vouched caller is an AGENT (the database says CLIENT): past the role check, to the mission's 404.
  const accepted = await fetch(`http://localhost/api/missions/${randomUUID()}/accept`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(accepted.status).toBe(404);
});

test('behavior: a write with another credential is authenticated by the route', async () => {
  const { fetch } = await mcpCall();
  const other = await signIn();
  const accepted = await fetch(`http://localhost/api/missions/${randomUUID()}/accept`, {
    method: 'POST',
    headers: { authorization: `Bearer ${other.token}` },
  });
  expect(accepted.status).toBe(403);
  expect(await accepted.json()).toMatchObject({ error: 'Agent role required' });
});

/** How many `GET /api/auth/me` answered 200 the request metrics have counted. */
async function countedMe(): Promise<number> {
  const { values } = await metrics().requests.get();
  return (
    values.find((v) => v.labels.route === '/api/auth/me' && v.labels.method === 'GET' && v.labels.status === 200)
      ?.value ?? 0
  );
}

test('behavior: the request metrics count HTTP requests, not a tool’s in-process calls', async () => {
  const { token, fetch } = await mcpCall();
  const before = await countedMe();
  expect((await fetch('http://localhost/api/auth/me', { headers: { authorization: `Bearer ${token}` } })).status).toBe(
    200,
  );
  expect(await countedMe()).toBe(before);
  // The same route answering a request of its own is counted.
  expect(
    (await getMe(new Request('http://localhost/api/auth/me', { headers: { authorization: `Bearer ${token}` } })))
      .status,
  ).toBe(200);
  expect(await countedMe()).toBe(before + 1);
});
