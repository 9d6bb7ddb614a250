// The agent's leash with a real client (docs/api.md#least-privilege, #confirmations; docs/agents.md):
// the MCP SDK's own OAuth client connects to /api/mcp, the person unticks a scope on the consent page
// in Chromium, the SDK steps up by itself when approve_mission needs missions:post, and the release
// waits until the person approves it on /confirmations/{id} — then the mission is COMPLETED and the
// agent paid. Connected apps shows each grant's limit, what it released and what waits; the
// confirmation page shows the mission, amount, recipient and deliverable, and denies too.
// (Two instances: tests/faults/agent-leash.test.ts.)
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect, test, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { callTool, mcpTransport } from '../support/mcp-client';
import { freshFundedKey, post, postFundedMission, signInWithKey } from '../support/e2e/api-seed';
import { connectWallet, openDashboardAs, type DashboardUser } from '../support/e2e/dashboard-user';
import { topUpEscrowTask } from '../support/e2e/chain';
import { e2e } from '../support/e2e/e2e-env';
import { MemoryOAuthProvider, startCallbackServer } from '../support/oauth-client';
import { screenshotPage } from '../support/e2e/screenshots';

const USDC = 1_000_000n;
const CLIENT_NAME = 'E2E Leashed Assistant';
const mcpUrl = () => new URL('/api/mcp', e2e.baseUrl);

async function get<T>(path: string, token: string): Promise<T> {
  const response = await fetch(e2e.baseUrl + path, { headers: { authorization: `Bearer ${token}` } });
  const data = (await response.json()) as T;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(data)}`);
  return data;
}

/** A registered agent: its key and a wallet sign-in token with the agent role. */
async function newAgent(): Promise<{ key: Hex; token: string; address: string }> {
  const key = await freshFundedKey();
  await post('/api/auth/register-agent', {}, await signInWithKey(key));
  return { key, token: await signInWithKey(key), address: privateKeyToAccount(key).address.toLowerCase() };
}

/** A mission `poster` funded and `agent` accepted and delivered with `note`: waiting for the poster's approval. */
async function deliveredMission(
  poster: Hex,
  agent: { token: string },
  title: string,
  reward: bigint,
  note: string,
): Promise<string> {
  const id = await postFundedMission(poster, {
    title,
    description: `${title}: one page, plain text.`,
    tags: [`leash-${randomUUID().slice(0, 8)}`],
    reward,
  });
  await post(`/api/missions/${id}/accept`, {}, agent.token);
  await post(`/api/missions/${id}/submit`, { note }, agent.token);
  return id;
}

async function pendingEarnings(agent: { token: string }): Promise<bigint> {
  return BigInt((await get<{ pending: string }>('/api/agents/me/earnings', agent.token)).pending);
}

/** On the authorize page, signed in: the scopes asked for are the ones ticked. */
async function expectAskedScopes(page: Page, scopes: string[]): Promise<void> {
  await expect(page.getByTestId('client-name')).toHaveText(CLIENT_NAME);
  const boxes = page.getByTestId('scopes').getByRole('checkbox');
  await expect(boxes).toHaveCount(scopes.length);
  for (const scope of scopes)
    await expect(page.getByTestId('scopes').getByRole('checkbox', { name: new RegExp(scope) })).toBeChecked();
}

test('the MCP SDK client gets what the person ticks, steps up for approve, and the release waits for a click', async ({
  browser,
}) => {
  const posterKey = await freshFundedKey();
  const agent = await newAgent();
  const note = 'The summary of the Streamable HTTP transport is attached below.';
  const missionId = await deliveredMission(posterKey, agent, 'Summarise the transport chapter', 6n * USDC, note);
  const person: DashboardUser = await openDashboardAs(browser, posterKey);
  const { page } = person;
  const callback = await startCallbackServer();
  const provider = new MemoryOAuthProvider(
    callback.url,
    {
      client_name: CLIENT_NAME,
      redirect_uris: [callback.url],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    async (authorizationUrl) => void (await page.goto(authorizationUrl.href)),
  );
  // The provider's fetch is the client-side step-up fix for SDK 1.32 (tests/support/oauth-client.ts).
  const connecting = mcpTransport(mcpUrl(), { authProvider: provider }, provider.steppingUp());
  const client = new Client({ name: 'leashed-assistant', version: '1.0.0' });

  await test.step('the first consent: the person unticks missions:work and keeps missions:read', async () => {
    await expect(new Client({ name: 'leashed-assistant', version: '1.0.0' }).connect(connecting)).rejects.toThrow(
      UnauthorizedError,
    );
    await expect(page.getByRole('heading', { name: `Connect ${CLIENT_NAME}` })).toBeVisible();
    await connectWallet(page);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // What the 401's challenge names: an agent's two scopes, nothing that moves money.
    await expectAskedScopes(page, ['missions:read', 'missions:work']);
    await expect(page.getByTestId('release-limit')).toHaveValue('0');
    await page.getByRole('checkbox', { name: /missions:work/ }).uncheck();
    await screenshotPage(page, 'leash-consent-narrowed');
    await page.getByRole('button', { name: 'Approve' }).click();
    const answer = await callback.next();
    expect(answer.get('state')).toBe(provider.expectedState);
    await connecting.finishAuth(answer.get('code')!);
    expect(provider.tokens()?.scope).toBe('missions:read');
    // One transport for the rest of the conversation, as an assistant keeps it.
    await client.connect(mcpTransport(mcpUrl(), { authProvider: provider }, provider.steppingUp()));
    expect(await callTool(client, 'get_mission', { id: missionId })).toMatchObject({
      status: 'SUBMITTED',
      submission: { note },
    });
  });

  await test.step(
    'approve_mission needs missions:post: the SDK meets the 403 challenge and sends the ' + 'person back to consent',
    async () => {
      await expect(client.callTool({ name: 'approve_mission', arguments: { id: missionId } })).rejects.toThrow(
        UnauthorizedError,
      );
      await expect(page).toHaveURL(/\/oauth\/authorize\?/);
      expect(new URL(page.url()).searchParams.get('scope')?.split(' ').sort()).toEqual([
        'missions:post',
        'missions:read',
      ]);
      await expectAskedScopes(page, ['missions:read', 'missions:post']);
      await screenshotPage(page, 'leash-consent-step-up');
      await page.getByRole('button', { name: 'Approve' }).click();
      const answer = await callback.next();
      const stepUp = mcpTransport(mcpUrl(), { authProvider: provider }, provider.steppingUp());
      await stepUp.finishAuth(answer.get('code')!);
      expect(provider.tokens()?.scope?.split(' ').sort()).toEqual(['missions:post', 'missions:read']);
    },
  );

  let confirmationUrl = '';
  await test.step(
    'the release is beyond the limit (0): the tool answers a confirmation and nothing is ' + 'released',
    async () => {
      // The same client retries the call it was refused; the SDK sends the new token.
      const result = await client.callTool({ name: 'approve_mission', arguments: { id: missionId } });
      expect(result.isError).toBeFalsy();
      const [api, text] = result.content as { text: string }[];
      const { confirmation } = JSON.parse(api!.text) as { confirmation: { id: string; url: string } };
      expect(confirmation.url).toBe(`${e2e.baseUrl}/confirmations/${confirmation.id}`);
      expect(text!.text).toMatch(/Nothing was released/);
      confirmationUrl = confirmation.url;
      expect(await callTool(client, 'get_mission', { id: missionId })).toMatchObject({ status: 'SUBMITTED' });
      expect(await pendingEarnings(agent)).toBe(0n);
    },
  );

  await test.step(
    'the person opens the URL in Chromium, sees what is paid to whom for what, ' + 'and approves',
    async () => {
      await page.goto(confirmationUrl);
      const card = page.getByTestId('confirmation');
      await expect(card).toContainText('Summarise the transport chapter');
      await expect(card.getByTestId('confirmation-amount')).toHaveText('6 USDC');
      await expect(card).toContainText(agent.address);
      // docs/api.md#confirmation-terms: the app's name is its own claim, marked so; the terms asked on stand
      // beside the same terms read now (the task's amount from the chain), and nothing has changed.
      await expect(card.getByTestId('confirmation-app')).toHaveText(CLIENT_NAME);
      await expect(card.getByTestId('confirmation-app-unverified')).toHaveText('(unverified name: the app chose it)');
      for (const term of ['taskAmount', 'reward']) {
        await expect(card.getByTestId(`terms-stored-${term}`)).toHaveText('6 USDC');
        await expect(card.getByTestId(`terms-live-${term}`)).toHaveText('6 USDC');
      }
      await expect(card.getByTestId('confirmation-terms')).not.toContainText('(changed)');
      await expect(card.getByRole('region', { name: 'The deliverable' })).toContainText(note);
      await expect(card.getByTestId('confirmation-status')).toContainText('Waiting for your decision');
      await screenshotPage(page, 'leash-confirmation');
      await card.getByRole('button', { name: 'Approve and release' }).click();
      await expect(card.getByTestId('confirmation-status')).toHaveText('Approved: the release was applied');
    },
  );

  await test.step('the client sees the mission COMPLETED, and the agent is paid', async () => {
    expect(await callTool(client, 'get_mission', { id: missionId })).toMatchObject({
      status: 'COMPLETED',
      completedAt: expect.any(String),
    });
    await expect.poll(() => pendingEarnings(agent), { timeout: 30_000 }).toBe(6n * USDC);
    // Asked again, the release is not made twice: the mission is no longer waiting for approval.
    const again = await client.callTool({ name: 'approve_mission', arguments: { id: missionId } });
    expect(again.isError).toBe(true);
  });
  await client.close();
  await callback.close();
  await person.context.close();
});

test(
  'Connected apps shows the limit, what was released and what waits; the confirmation ' +
    'page denies; revoking stops the token',
  async ({ browser }) => {
    const posterKey = await freshFundedKey();
    const agent = await newAgent();
    const within = await deliveredMission(posterKey, agent, 'Translate the README', 3n * USDC, 'README in French.');
    const approvedThere = await deliveredMission(
      posterKey,
      agent,
      'Fix the broken links',
      2n * USDC,
      'Links fixed: 14.',
    );
    const deniedHere = await deliveredMission(
      posterKey,
      agent,
      'Write the changelog',
      2n * USDC,
      'Changelog: one line, "stuff".',
    );
    const session = await signInWithKey(posterKey);
    const made = await post<{ token: string; grant: { id: string } }>(
      '/api/tokens',
      { name: 'chat assistant', scopes: ['missions:read', 'missions:post'], releaseLimit: (4n * USDC).toString() },
      session,
    );
    const approve = (id: string) =>
      fetch(`${e2e.baseUrl}/api/missions/${id}/approve`, {
        method: 'POST',
        headers: { authorization: `Bearer ${made.token}`, 'content-type': 'application/json' },
        body: '{}',
      });
    // 3 USDC is within the 4 USDC limit: applied at once. 2 more would pass it: each waits.
    expect((await approve(within)).status).toBe(200);
    const waiting = await approve(approvedThere);
    expect(waiting.status).toBe(202);
    const denied = await approve(deniedHere);
    expect(denied.status).toBe(202);
    const toDeny = ((await denied.json()) as { confirmation: { url: string } }).confirmation.url;

    const person = await openDashboardAs(browser, posterKey);
    const { page } = person;
    await page.goto('/sign-in?next=/connected-apps');
    await connectWallet(page);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Connected apps' })).toBeVisible();
    const listed = page.getByTestId('personal-tokens').getByRole('listitem').filter({ hasText: 'chat assistant' });
    await expect(listed.getByTestId('release-limit')).toHaveText('4 USDC');
    await expect(listed.getByTestId('released-24h')).toHaveText('3 USDC');
    const cards = listed.getByTestId('confirmation');
    await expect(cards).toHaveCount(2);
    await screenshotPage(page, 'connected-apps-confirmations');

    await test.step('the person raises the limit', async () => {
      await listed.getByLabel(/Release without asking/).fill('10');
      // The release limit's own form: the funding limit beside it has its own Save limit
      // (docs/api.md#standing-allowance).
      await listed
        .locator('form')
        .filter({ hasText: 'Release without asking' })
        .getByRole('button', { name: 'Save limit' })
        .click();
      await expect(listed.getByTestId('release-limit')).toHaveText('10 USDC');
    });

    await test.step('one waiting release approved in Connected apps is applied', async () => {
      const card = cards.filter({ hasText: 'Fix the broken links' });
      await expect(card.getByTestId('confirmation-amount')).toHaveText('2 USDC');
      await card.getByRole('button', { name: 'Approve and release' }).click();
      await expect(cards).toHaveCount(1);
      expect((await get<{ status: string }>(`/api/missions/${approvedThere}`, session)).status).toBe('COMPLETED');
      // Releases the person approved are theirs, not the token's: the 24 h count is unchanged.
      await expect(listed.getByTestId('released-24h')).toHaveText('3 USDC');
    });

    await test.step(
      'the other, opened at its URL after its task was topped up, shows the change, refuses approval, ' +
        'and is denied',
      async () => {
        // A top-up straight on the chain (no bump): the escrow task now holds more than the person was asked
        // about, so the card marks the term and approving is refused (docs/api.md#confirmation-terms).
        const taskId = (await get<{ onChainTaskId: number }>(`/api/missions/${deniedHere}`, session)).onChainTaskId;
        await topUpEscrowTask(posterKey, taskId, 1n * USDC);
        await page.goto(toDeny);
        const card = page.getByTestId('confirmation');
        await expect(card).toContainText('Write the changelog');
        await expect(card.getByTestId('confirmation-amount')).toHaveText('2 USDC');
        await expect(card.getByTestId('terms-stored-taskAmount')).toHaveText('2 USDC');
        await expect(card.getByTestId('terms-live-taskAmount')).toHaveText('3 USDC (changed)');
        await expect(card.getByTestId('terms-live-reward')).toHaveText('2 USDC');
        await expect(card.getByTestId('confirmation-terms')).toContainText('they changed since; approving is refused');
        await expect(card.getByRole('button', { name: 'Approve and release' })).toBeDisabled();
        // A personal token is named as the person named it, with no "unverified" mark.
        await expect(card.getByTestId('confirmation-app-unverified')).toHaveCount(0);
        await expect(card).toContainText(agent.address);
        await expect(card).toContainText('chat assistant');
        await expect(card.getByRole('region', { name: 'The deliverable' })).toContainText(
          'Changelog: one line, "stuff".',
        );
        await card.getByRole('button', { name: 'Deny' }).click();
        await expect(card.getByTestId('confirmation-status')).toHaveText('Denied: nothing was released');
        await expect(card.getByRole('button', { name: 'Approve and release' })).toHaveCount(0);
        expect((await get<{ status: string }>(`/api/missions/${deniedHere}`, session)).status).toBe('SUBMITTED');
      },
    );

    await test.step('revoked in Connected apps, the token is refused', async () => {
      await page.goto('/connected-apps');
      await expect(listed.getByTestId('confirmation')).toHaveCount(0);
      await listed.getByRole('button', { name: 'Revoke' }).click();
      await expect(page.getByText('No personal access tokens.')).toBeVisible();
      expect((await approve(deniedHere)).status).toBe(401);
    });
    await person.context.close();
  },
);
