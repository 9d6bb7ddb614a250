// Two MCP clients people connect with, run for real against the step-up challenge
// (docs/agents.md#step-up-by-client): mcp-remote, the stdio proxy desktop assistants start, and the
// MCP Inspector's CLI. Each signs in through our consent page (Chromium, the test wallet) with what
// it asks for first; then it calls post_mission, which needs missions:post, and meets
// `403 insufficient_scope`. What each does next is asserted exactly, so a release that changes it
// (one that starts or stops stepping up) fails here and the doc gets re-measured.
// Both are pinned devDependencies run from node_modules. Neither opens a real browser: BROWSER names
// a stub that writes the URL down, and the test opens it in its own page, as the person would.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, test, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { freePort } from '../../lib/chain/anvil-node';
import { freshFundedKey } from '../support/e2e/api-seed';
import { connectWallet, openDashboardAs, type DashboardUser } from '../support/e2e/dashboard-user';
import { e2e } from '../support/e2e/e2e-env';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));
const versionOf = (name: string) =>
  (JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')) as { version: string }).version;
const mcpUrl = () => new URL('/api/mcp', e2e.baseUrl).href;

/** What our protected-resource metadata's scopes_supported and the first 401 name: an agent's two. */
const FIRST = ['missions:read', 'missions:work'];
/** What the 403 on post_mission names: what the token holds plus missions:post. */
const WIDER = [...FIRST, 'missions:post'];

const mission = () => ({
  title: 'Translate the onboarding guide',
  description: 'English to German, about 2,000 words.',
  reward: '2000000',
  deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
});

/** A scratch HOME for one client: its token store, a BROWSER that writes down what it opens, a fetch log. */
interface Sandbox {
  dir: string;
  env: Record<string, string>;
  /** The nth URL (0-based) the client sent "the browser" to, once it has. */
  opened(n: number): Promise<URL>;
  openedCount(): number;
  /** A node flag that logs each global fetch the client makes as "METHOD path status grant-or-rpc scope=…". */
  recordFetch: string[];
  requests(): string[];
  remove(): void;
}

function sandbox(): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), 'taskmarket-step-up-'));
  const lines = (file: string) => readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean);
  writeFileSync(join(dir, 'opened'), '');
  writeFileSync(join(dir, 'requests'), '');
  writeFileSync(join(dir, 'browser'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${join(dir, 'opened')}'\n`);
  chmodSync(join(dir, 'browser'), 0o755);
  // The client's own view of the wire; the server logs no requests.
  writeFileSync(
    join(dir, 'record-fetch.mjs'),
    `import { appendFileSync } from 'node:fs';
const original = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  const body = request.method === 'POST' ? await request.clone().text() : '';
  const response = await original(input, init);
  let rpc = '';
  try { rpc = JSON.parse(body).method ?? ''; } catch {}
  const scope = /scope="([^"]*)"/.exec(response.headers.get('www-authenticate') ?? '')?.[1];
  const line = [request.method, new URL(request.url).pathname, response.status,
    new URLSearchParams(body).get('grant_type') ?? rpc, scope === undefined ? '' : 'scope=' + scope];
  appendFileSync(${JSON.stringify(join(dir, 'requests'))}, line.join(' ').trim() + '\\n');
  return response;
};
`,
  );
  return {
    dir,
    // No DISPLAY, no desktop session: xdg-open (both clients use the \`open\` package) falls back to $BROWSER.
    env: { PATH: process.env.PATH ?? '', HOME: dir, BROWSER: join(dir, 'browser'), NO_COLOR: '1' },
    opened: async (n) => {
      await expect.poll(() => lines('opened').length, { timeout: 15_000 }).toBeGreaterThan(n);
      return new URL(lines('opened')[n]!);
    },
    openedCount: () => lines('opened').length,
    recordFetch: ['--import', pathToFileURL(join(dir, 'record-fetch.mjs')).href],
    requests: () => lines('requests'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A child's stderr as it grows. */
function collect(stream: Readable): () => string {
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => void (text += chunk));
  return () => text;
}

/**
 * Opens the authorization URL the client gave, signs in with the wallet when asked, and answers the
 * app's name and the scopes the consent page offers (each ticked), and those marked granted.
 */
async function openConsent(user: DashboardUser, url: URL) {
  const { page } = user;
  await page.goto(url.href);
  const signIn = page.getByRole('button', { name: 'Sign in', exact: true });
  await expect(signIn.or(page.getByTestId('scopes'))).toBeVisible();
  if (await signIn.isVisible()) {
    await connectWallet(page);
    await signIn.click();
  }
  const scopes = page.getByTestId('scopes');
  await expect(scopes).toBeVisible();
  return {
    client: await page.getByTestId('client-name').textContent(),
    offered: await scopes
      .locator('input[name="scope"]')
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value)),
    granted: await scopes.getByTestId('granted').count(),
  };
}

async function approve(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Approve' }).click();
  // The consent page's 303 sends the browser on to the client's loopback callback.
  await page.waitForURL((url) => url.origin !== new URL(e2e.baseUrl).origin);
}

test('mcp-remote 0.15.1 steps up: a second consent for the wider scopes, then the same call goes through', async ({
  browser,
}) => {
  expect(versionOf('mcp-remote')).toBe('0.15.1');
  const box = sandbox();
  const user = await openDashboardAs(browser, await freshFundedKey());
  // No fetch log here: mcp-remote sends MCP through undici's own fetch, so it would show discovery alone.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(packageDir('mcp-remote'), 'dist', 'proxy.js'), mcpUrl(), String(await freePort())],
    env: { ...box.env, MCP_REMOTE_CONFIG_DIR: join(box.dir, 'mcp-auth') },
    stderr: 'pipe',
  });
  const stderr = collect(transport.stderr as Readable);
  const client = new Client({ name: 'desktop-assistant', version: '1.0.0' });
  try {
    // mcp-remote signs in before it answers on stdio, so connect() settles only once consent is given.
    const connected = client.connect(transport);
    const first = await box.opened(0);
    expect(first.searchParams.get('scope')).toBe(FIRST.join(' '));
    expect(await openConsent(user, first)).toEqual({ client: 'MCP CLI Proxy', offered: FIRST, granted: 0 });
    await approve(user.page);
    await connected;

    // The same tools/call waits while mcp-remote sends the person to consent again and retries it.
    const posting = client.callTool({ name: 'post_mission', arguments: mission() });
    const second = await box.opened(1);
    expect(second.searchParams.get('scope')).toBe(WIDER.join(' '));
    expect(second.searchParams.get('client_id')).toBe(first.searchParams.get('client_id'));
    expect(await openConsent(user, second)).toEqual({ client: 'MCP CLI Proxy', offered: WIDER, granted: 2 });
    await approve(user.page);
    const result = await posting;
    expect(result.isError).toBeFalsy();
    const [content] = result.content as { text: string }[];
    expect(JSON.parse(content!.text)).toMatchObject({ title: mission().title, status: 'AWAITING_FUNDING' });

    expect(stderr()).toContain(
      'Authorizing with the scope the server asked for: missions:read missions:work missions:post',
    );
    expect(stderr()).toContain('Remote server requires authorization, completing sign-in');
    expect(stderr()).toContain('Re-authorized with the remote server');
    expect(box.openedCount()).toBe(2);
  } finally {
    await client.close();
    await user.context.close();
    box.remove();
  }
});

test('the MCP Inspector 2.12.0 CLI refreshes its token on the 403 and gives up, with no second consent', async ({
  browser,
}) => {
  expect(versionOf('@modelcontextprotocol/inspector')).toBe('2.12.0');
  const box = sandbox();
  const user = await openDashboardAs(browser, await freshFundedKey());
  const launcher = join(packageDir('@modelcontextprotocol/inspector'), 'clients', 'launcher', 'build', 'index.js');
  const child = spawn(
    process.execPath,
    [
      ...box.recordFetch,
      launcher,
      '--cli',
      mcpUrl(),
      '--method',
      'tools/call',
      '--tool-name',
      'post_mission',
      '--tool-args-json',
      JSON.stringify(mission()),
      '--callback-url',
      `http://127.0.0.1:${await freePort()}/oauth/callback`,
      '--format',
      'json',
    ],
    {
      env: {
        NODE_ENV: 'production' as const,
        ...box.env,
        // Not a TTY here: the Inspector's own switch to run its interactive OAuth anyway (and open the browser).
        MCP_AUTO_OPEN_ENABLED: 'true',
        // No keychain in CI: its documented file store, in the scratch HOME.
        MCP_INSPECTOR_SECRET_STORE: 'file',
      },
    },
  );
  const stderr = collect(child.stderr);
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const first = await box.opened(0);
    expect(first.searchParams.get('scope')).toBe(FIRST.join(' '));
    expect(await openConsent(user, first)).toEqual({ client: 'MCP Inspector', offered: FIRST, granted: 0 });
    await approve(user.page);
    expect(await exited).toBe(1);

    const requests = box.requests();
    const refused = requests.indexOf('POST /api/mcp 403 tools/call scope=missions:read missions:work missions:post');
    expect(requests.slice(0, refused)).toContain('POST /api/oauth/token 200 authorization_code');
    // After the 403: one refresh, which cannot widen the grant (RFC 6749 §6), and nothing more — no retry.
    expect(requests.slice(refused)).toEqual([
      'POST /api/mcp 403 tools/call scope=missions:read missions:work missions:post',
      'POST /api/oauth/token 200 refresh_token',
    ]);
    expect(stderr()).toContain(
      '{"error":{"code":"error","message":"Unexpected: auth() returned AUTHORIZED without authorization code"}}',
    );
    // Its code has a step-up prompt and a second authorization; this challenge never reaches them.
    expect(stderr()).not.toContain('Proceed with step-up authorization?');
    expect(box.openedCount()).toBe(1);
  } finally {
    child.kill();
    await user.context.close();
    box.remove();
  }
});
