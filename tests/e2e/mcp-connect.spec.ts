// A hosted AI client connecting by URL (docs/api.md#mcp): the MCP SDK's own client meets 401 at
// /api/mcp, discovers the authorization server, registers itself and sends the person to the
// consent page, driven here in Chromium with the test wallet; approved, it works a mission through
// the tools; denied, it gets access_denied. Connected apps lists the grant and revokes it, and
// makes personal access tokens.
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect, test, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import type { Hex } from 'viem';
import { callTool, connectMcp, mcpTransport } from '../support/mcp-client';
import { freshFundedKey, post, postFundedMission, signInWithKey } from '../support/e2e/api-seed';
import { connectWallet, openDashboardAs, type DashboardUser } from '../support/e2e/dashboard-user';
import { e2e } from '../support/e2e/e2e-env';
import { MemoryOAuthProvider, startCallbackServer, type CallbackServer } from '../support/oauth-client';
import { screenshotPage } from '../support/e2e/screenshots';

const CLIENT_NAME = 'E2E Research Agent';
const mcpUrl = () => new URL('/api/mcp', e2e.baseUrl);

interface Flow {
  user: DashboardUser;
  callback: CallbackServer;
  provider: MemoryOAuthProvider;
  /** Every request the MCP client made: "METHOD path status". */
  requests: string[];
  close(): Promise<void>;
}

/** An agent's browser and an MCP client that has just been refused and sent the browser to consent. */
async function startFlow(browser: Parameters<typeof openDashboardAs>[0], key: Hex): Promise<Flow> {
  const user = await openDashboardAs(browser, key);
  const callback = await startCallbackServer();
  const requests: string[] = [];
  const recording = async (url: string | URL, init?: RequestInit) => {
    const response = await fetch(url, init);
    requests.push(`${init?.method ?? 'GET'} ${new URL(url).pathname} ${response.status}`);
    return response;
  };
  const provider = new MemoryOAuthProvider(
    callback.url,
    {
      client_name: CLIENT_NAME,
      redirect_uris: [callback.url],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    async (authorizationUrl) => void (await user.page.goto(authorizationUrl.href)),
  );
  await expect(connectMcp(mcpUrl(), { authProvider: provider }, recording)).rejects.toThrow(UnauthorizedError);
  return {
    user,
    callback,
    provider,
    requests,
    close: async () => Promise.all([user.context.close(), callback.close()]).then(() => undefined),
  };
}

/** On the authorize page: sign in with the wallet, then check what the consent form shows. */
async function signInAndReview(page: Page, callback: CallbackServer): Promise<void> {
  await expect(page.getByRole('heading', { name: `Connect ${CLIENT_NAME}` })).toBeVisible();
  await connectWallet(page);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('client-name')).toHaveText(CLIENT_NAME);
  await expect(page.getByTestId('redirect-host')).toHaveText(new URL(callback.url).host);
  // The SDK asks for what the 401's challenge names (docs/api.md#least-privilege): an agent's two scopes.
  for (const scope of ['missions:read', 'missions:work']) await expect(page.getByTestId('scopes')).toContainText(scope);
  for (const scope of ['missions:post', 'earnings:claim', 'webhooks'])
    await expect(page.getByTestId('scopes')).not.toContainText(scope);
}

/** Through consent to a connected MCP client. */
async function approve(flow: Flow): Promise<Client> {
  await flow.user.page.getByRole('button', { name: 'Approve' }).click();
  const answer = await flow.callback.next();
  expect(answer.get('state')).toBe(flow.provider.expectedState);
  expect(answer.get('iss')).toBe(e2e.baseUrl);
  await mcpTransport(mcpUrl(), { authProvider: flow.provider }).finishAuth(answer.get('code')!);
  return connectMcp(mcpUrl(), { authProvider: flow.provider });
}

async function newAgentKey(): Promise<Hex> {
  const key = await freshFundedKey();
  await post('/api/auth/register-agent', {}, await signInWithKey(key));
  return key;
}

test('an MCP client connects through OAuth consent and works a mission with the tools', async ({ browser }) => {
  const tag = `mcp-${randomUUID().slice(0, 8)}`;
  const missionId = await postFundedMission(await freshFundedKey(), {
    title: 'Summarise the MCP spec',
    description: 'Three paragraphs on the Streamable HTTP transport.',
    tags: [tag],
    reward: 4_000_000n,
  });
  const flow = await startFlow(browser, await newAgentKey());
  // The client found its way by itself: refused, discovery (RFC 9728, RFC 8414), registration (RFC 7591).
  expect(flow.requests).toEqual([
    'POST /api/mcp 401',
    'GET /.well-known/oauth-protected-resource/api/mcp 200',
    'GET /.well-known/oauth-authorization-server 200',
    'POST /api/oauth/register 201',
  ]);
  expect(new URL(flow.user.page.url()).pathname).toBe('/oauth/authorize');
  await signInAndReview(flow.user.page, flow.callback);
  await screenshotPage(flow.user.page, 'oauth-consent');

  const client = await approve(flow);
  expect(flow.provider.tokens()?.refresh_token).toBeTruthy();
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(
    expect.arrayContaining(['find_missions', 'get_mission', 'accept_mission', 'submit_work']),
  );

  const found = await callTool<{ items: { id: string }[] }>(client, 'find_missions', { tag });
  expect(found.items.map((m) => m.id)).toEqual([missionId]);
  const mission = await callTool(client, 'get_mission', { id: missionId });
  expect(mission).toMatchObject({ title: 'Summarise the MCP spec', status: 'OPEN', reward: '4000000' });
  expect(await callTool(client, 'accept_mission', { id: missionId })).toMatchObject({ status: 'ACCEPTED' });
  const report = 'The transport is one POST endpoint; answers are JSON or an SSE stream.';
  const submitted = await callTool(client, 'submit_work', {
    id: missionId,
    note: 'Summary attached.',
    attachments: [{ name: 'summary.txt', mimeType: 'text/plain', data: Buffer.from(report).toString('base64') }],
  });
  expect(submitted).toMatchObject({
    status: 'SUBMITTED',
    submission: { note: 'Summary attached.', files: [{ filename: 'summary.txt', size: report.length }] },
  });
  const fileId = submitted.submission.files[0].id as string;
  const file = await client.callTool({ name: 'get_mission_file', arguments: { id: missionId, fileId } });
  expect((file.content as { text: string }[])[1]!.text).toBe(report);
  await client.close();
  await flow.close();
});

test('denying consent sends the client access_denied and grants nothing', async ({ browser }) => {
  const flow = await startFlow(browser, await newAgentKey());
  await signInAndReview(flow.user.page, flow.callback);
  await flow.user.page.getByRole('button', { name: 'Deny' }).click();
  const answer = await flow.callback.next();
  expect(answer.get('error')).toBe('access_denied');
  expect(answer.get('code')).toBeNull();
  expect(answer.get('state')).toBe(flow.provider.expectedState);
  expect(flow.provider.tokens()).toBeUndefined();
  await flow.user.page.goto('/connected-apps');
  await expect(flow.user.page.getByText('No apps connected.')).toBeVisible();
  await flow.close();
});

test('Connected apps lists the grant with its last use, and revoking it refuses the client within a second', async ({
  browser,
}) => {
  const flow = await startFlow(browser, await newAgentKey());
  await signInAndReview(flow.user.page, flow.callback);
  const client = await approve(flow);
  await callTool(client, 'whoami');
  const { page } = flow.user;
  await page.goto('/connected-apps');
  const app = page.getByTestId('connected-apps').getByRole('listitem').filter({ hasText: CLIENT_NAME });
  await expect(app).toContainText('missions:work');
  await expect(app.getByTestId('last-used')).not.toHaveText('Never');
  await screenshotPage(page, 'connected-apps');

  // After revocation the SDK tries its refresh token, which is refused too, and then asks for consent again.
  flow.provider.redirectToAuthorization = async () => undefined;
  const accessToken = flow.provider.tokens()!.access_token;
  await app.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByText('No apps connected.')).toBeVisible();
  const revokedAt = Date.now();
  await expect(callTool(client, 'whoami')).rejects.toThrow(UnauthorizedError);
  const direct = await fetch(mcpUrl(), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${accessToken}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: '{}',
  });
  expect(direct.status).toBe(401);
  expect(Date.now() - revokedAt).toBeLessThan(1_000);
  await flow.close();
});

test('a personal access token made in Connected apps is shown once and works as a bearer', async ({ browser }) => {
  const key = await newAgentKey();
  const user = await openDashboardAs(browser, key);
  const { page } = user;
  await page.goto('/sign-in?next=/connected-apps');
  await connectWallet(page);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Connected apps' })).toBeVisible();
  await expect(page.getByText('No personal access tokens.')).toBeVisible();

  await page.getByLabel('Name').fill('nightly build agent');
  await page.getByRole('checkbox', { name: /missions:work/ }).uncheck();
  await page.getByLabel('Expires after').selectOption({ label: '30 days' });
  await page.getByRole('button', { name: 'Make token' }).click();
  const shown = page.getByTestId('new-token');
  await expect(shown).toContainText('not shown again');
  const token = (await shown.getByTestId('new-token-value').textContent())!;
  expect(token).toMatch(/^tm_[A-Za-z0-9_-]{43}$/);
  const listed = page.getByTestId('personal-tokens').getByRole('listitem').filter({ hasText: 'nightly build agent' });
  await expect(listed).toContainText(token.slice(0, 7));
  await expect(listed).toContainText('missions:read');
  await expect(listed).not.toContainText('missions:work');
  await screenshotPage(page, 'connected-apps-new-token');

  const me = await fetch(new URL('/api/auth/me', e2e.baseUrl), { headers: { authorization: `Bearer ${token}` } });
  expect(me.status).toBe(200);
  expect(((await me.json()) as { user: { walletAddress: string } }).user.walletAddress).toBe(
    user.wallet.address.toLowerCase(),
  );
  // Its scopes hold: reading yes, working no.
  const mcp = await connectMcp(mcpUrl(), { token });
  await expect(callTool(mcp, 'accept_mission', { id: randomUUID() })).rejects.toThrow(
    'Token lacks the missions:work scope',
  );
  await mcp.close();

  await page.reload();
  await expect(listed).toBeVisible();
  await expect(page.getByTestId('new-token')).toHaveCount(0);
  await expect(page.getByText(token)).toHaveCount(0);
  await listed.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('No personal access tokens.')).toBeVisible();
  expect(
    (await fetch(new URL('/api/auth/me', e2e.baseUrl), { headers: { authorization: `Bearer ${token}` } })).status,
  ).toBe(401);
  await user.context.close();
});
