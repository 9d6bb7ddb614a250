// Remote MCP behind a load balancer (docs/api.md#mcp): two production instances on one PostgreSQL and
// one Redis behind a round-robin proxy, and the MCP SDK's own client holding one session through
// it — its requests alternate between the instances and every tool call works, with a personal
// access token and with an OAuth token got through the endpoints. A token or grant revoked
// through one instance is refused by the other within a second.
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startLocalChain, type LocalChain } from '@/lib/chain/local-chain';
import { callTool, connectMcp, mcpTransport } from '../support/mcp-client';
import { MemoryOAuthProvider } from '../support/oauth-client';
import { fundTaskOn } from '../support/escrow';
import { type Instance, loggedFailures, productionEnv, startPair, type Pair } from '../support/faults/instances';
import { request, signIn, signedMessage, verify } from '../support/faults/client';
import { startRoundRobin, type RoundRobin } from '../support/faults/round-robin';
import { freePort } from '@/lib/chain/anvil-node';
import { freshMachineDatabase } from '../support/faults/services';

const MACHINE_REDIS = 'redis://127.0.0.1:6379';

let chain: LocalChain;
let database: Awaited<ReturnType<typeof freshMachineDatabase>>;
let pair: Pair;
let proxy: RoundRobin;
/** The balancer's URL, as a request target like an instance. */
let balanced: Instance;

beforeAll(async () => {
  [chain, database] = await Promise.all([startLocalChain({ port: await freePort() }), freshMachineDatabase()]);
  const port = await freePort();
  // The deployment's public origin is the balancer's: the discovery documents name it.
  pair = await startPair(
    productionEnv(
      { databaseUrl: database.url, redisUrl: MACHINE_REDIS, chain },
      { APP_ORIGINS: `http://127.0.0.1:${port}` },
    ),
  );
  proxy = await startRoundRobin(pair.both, port);
  balanced = { ...pair.a, url: proxy.url };
});

afterAll(async () => {
  if (pair) expect([...loggedFailures(pair.a), ...loggedFailures(pair.b)]).toEqual([]);
  await proxy?.close();
  await pair?.stop();
  await chain?.stop();
  await database?.drop();
});

/** An agent with a personal access token of `scopes`, made with its wallet sign-in. */
async function agentWithToken(scopes = ['missions:read', 'missions:work']) {
  const { token: signedIn } = await signIn(pair.a);
  const registered = await request(pair.a, '/api/auth/register-agent', { method: 'POST', token: signedIn });
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  const session = registered.body.token as string;
  const made = await request(pair.b, '/api/tokens', {
    token: session,
    body: { name: 'balanced agent', scopes, expiresIn: 3600 },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { session, token: made.body.token as string, grantId: made.body.grant.id as string };
}

async function fundedMission(): Promise<string> {
  const client = await signIn(pair.b);
  const taskId = await fundTaskOn({ rpcUrl: chain.rpcUrl, ...chain.contracts }, client.account, 2_000_000n);
  const created = await request(pair.b, '/api/missions', {
    token: client.token,
    body: {
      title: 'Balanced work',
      description: 'Delivered through two instances.',
      category: 'mcp',
      reward: '2000000',
      deadline: new Date(Date.now() + 86_400_000).toISOString(),
      onChainTaskId: taskId,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

describe('one MCP session through a round-robin balancer', () => {
  test('behavior: an unauthorized client is pointed at the balancer’s discovery document', async () => {
    const reply = await request(balanced, '/api/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toContain(
      `resource_metadata="${proxy.url}/.well-known/oauth-protected-resource/api/mcp"`,
    );
    const metadata = await request(balanced, '/.well-known/oauth-protected-resource/api/mcp');
    expect(metadata.body).toMatchObject({ resource: `${proxy.url}/api/mcp`, authorization_servers: [proxy.url] });
  });

  test('behavior: tool calls alternate between the instances and all succeed', async () => {
    const missionId = await fundedMission();
    const agent = await agentWithToken();
    const client: Client = await connectMcp(`${proxy.url}/api/mcp`, { token: agent.token });
    const from = proxy.served.length;
    expect(await callTool(client, 'whoami')).toMatchObject({ user: { role: 'AGENT' } });
    const board = await callTool<{ items: { id: string }[] }>(client, 'find_missions', { category: 'mcp' });
    expect(board.items.map((m) => m.id)).toContain(missionId);
    expect(await callTool(client, 'get_mission', { id: missionId })).toMatchObject({ status: 'OPEN' });
    expect(await callTool(client, 'accept_mission', { id: missionId })).toMatchObject({ status: 'ACCEPTED' });
    const delivered = await callTool(client, 'submit_work', {
      id: missionId,
      note: 'Both instances took part.',
      attachments: [{ name: 'result.txt', data: Buffer.from('balanced').toString('base64') }],
    });
    expect(delivered).toMatchObject({
      status: 'SUBMITTED',
      submission: { files: [{ filename: 'result.txt', size: 8 }] },
    });
    expect(await callTool(client, 'get_mission', { id: missionId })).toMatchObject({ status: 'SUBMITTED' });
    await client.close();
    const calls = proxy.served.slice(from).filter((s) => s.path === '/api/mcp' && s.method === 'POST');
    expect(calls).toHaveLength(6);
    expect(calls.every((s) => s.status === 200)).toBe(true);
    // The one session's calls were answered by both instances, each several times.
    for (const instance of [0, 1])
      expect(calls.filter((s) => s.instance === instance).length).toBeGreaterThanOrEqual(2);
  });

  test('behavior: a token revoked through one instance is refused by the other within a second', async () => {
    const agent = await agentWithToken(['missions:read']);
    const client = await connectMcp(`${pair.b.url}/api/mcp`, { token: agent.token });
    expect(await callTool(client, 'find_missions', { limit: 1 })).toHaveProperty('items');
    const revoked = await request(pair.a, `/api/tokens/${agent.grantId}`, { method: 'DELETE', token: agent.session });
    expect(revoked.status).toBe(200);
    const at = Date.now();
    await expect(callTool(client, 'find_missions', { limit: 1 })).rejects.toMatchObject({ code: 401 });
    expect(Date.now() - at).toBeLessThan(1_000);
    expect((await request(pair.b, '/api/auth/me', { token: agent.token })).status).toBe(401);
  });
});

/**
 * What a person's browser does on the consent page, over plain HTTP: the page (with the session
 * cookie) hands out the form and its one-time token, the form is posted with "approve", and the
 * 303 names the client's redirect URI with the code.
 */
async function approveOverHttp(authorizationUrl: URL, cookie: string): Promise<string> {
  const page = await fetch(authorizationUrl, { headers: { cookie } });
  const html = await page.text();
  const hidden = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [
    name!,
    value!.replaceAll('&amp;', '&'),
  ]);
  expect(hidden.map(([name]) => name)).toContain('form_token');
  // The scope checkboxes, as the browser sends them when left checked (docs/api.md#choosing-scopes).
  const checked = [...html.matchAll(/<input type="checkbox" name="scope" checked="" value="([^"]+)"/g)].map(
    ([, value]) => ['scope', value!],
  );
  expect(checked.length).toBeGreaterThan(0);
  const form = new URLSearchParams([...hidden, ...checked, ['decision', 'approve']]);
  const decided = await fetch(new URL('/api/oauth/authorize', authorizationUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, origin: authorizationUrl.origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  expect(decided.status, await decided.clone().text()).toBe(303);
  const code = new URL(decided.headers.get('location')!).searchParams.get('code');
  expect(code).toBeTruthy();
  return code!;
}

describe('OAuth through the balancer', () => {
  test(
    'behavior: the SDK client authorizes through the endpoints; its grant revoked on one ' +
      'instance is refused by the other within a second',
    async () => {
      const signedIn = await verify(pair.a, await signedMessage(pair.a));
      expect(signedIn.status).toBe(200);
      const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
      const session = signedIn.body.token as string;
      // The redirect is never followed: the code is read from the 303, as the browser would be sent there.
      const redirectUri = 'http://127.0.0.1:9/callback';
      let code: string | undefined;
      const provider = new MemoryOAuthProvider(
        redirectUri,
        {
          client_name: 'Balanced client',
          redirect_uris: [redirectUri],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        },
        async (authorizationUrl) => void (code = await approveOverHttp(authorizationUrl, cookie)),
      );
      const mcpUrl = `${proxy.url}/api/mcp`;
      await expect(connectMcp(mcpUrl, { authProvider: provider })).rejects.toThrow(UnauthorizedError);
      await mcpTransport(mcpUrl, { authProvider: provider }).finishAuth(code!);
      const client = await connectMcp(mcpUrl, { authProvider: provider });
      for (let i = 0; i < 4; i++)
        expect(await callTool(client, 'whoami')).toMatchObject({
          user: { walletAddress: signedIn.body.user.walletAddress },
        });

      const accessToken = provider.tokens()!.access_token;
      const onB = await connectMcp(`${pair.b.url}/api/mcp`, { token: accessToken });
      expect(await callTool(onB, 'find_missions', { limit: 1 })).toHaveProperty('items');
      const grants = await request(pair.a, '/api/grants', { token: session });
      expect(grants.body.items).toMatchObject([{ kind: 'oauth', name: 'Balanced client' }]);
      expect(
        (await request(pair.a, `/api/grants/${grants.body.items[0].id}`, { method: 'DELETE', token: session })).status,
      ).toBe(200);
      const at = Date.now();
      await expect(callTool(onB, 'find_missions', { limit: 1 })).rejects.toMatchObject({ code: 401 });
      expect(Date.now() - at).toBeLessThan(1_000);
      const refresh = await fetch(`${pair.b.url}/api/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: provider.tokens()!.refresh_token!,
          client_id: provider.clientInformation()!.client_id,
        }),
      });
      expect(refresh.status).toBe(400);
      expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
    },
  );
});
