// Inline UI (docs/api.md#mcp-apps), rendered the way a host that supports MCP Apps renders it: the tools
// list names the page, the page is read with resources/read, and the MCP Apps SDK's own host side
// (AppBridge over postMessage, @modelcontextprotocol/ext-apps) hands it a real tool result in a sandboxed
// frame, in Debian's Chromium. Screenshots at two widths land in test-results/mcp-apps/. The tool's
// answer itself is the same text as before, for hosts without MCP Apps.
import { mkdirSync } from 'node:fs';
import { build } from 'esbuild';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { POST as postMcp } from '@/app/api/mcp/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { connectMcp } from '../support/mcp-client';
import { act, createMission, newAgent, ok, type Party } from '../support/missions';
import { signIn } from '../support/wallets';
import { connect, MCP_RESOURCE } from '../support/oauth';
import { CHROMIUM_ARGS } from '../e2e/playwright.config';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000', MCP_RATE_LIMIT_PER_MINUTE: '100000' });

const OUT = 'test-results/mcp-apps';
const routeFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress('10.9.9.13'));
  return postMcp(request, { params: Promise.resolve({}) });
};

let browser: Browser;
let hostScript: string;
let mcp: Client;
let owner: Party;
beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  // The host side of the MCP Apps SDK, bundled for the browser as a host application would ship it.
  const bundled = await build({
    stdin: {
      contents:
        "import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';" +
        'window.McpAppsHost = { AppBridge, PostMessageTransport };',
      resolveDir: process.cwd(),
    },
    bundle: true,
    platform: 'browser',
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  hostScript = bundled.outputFiles[0]!.text;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const person = await signIn();
  owner = { token: person.token, address: person.user.walletAddress, id: person.user.id };
  const { tokens } = await connect('missions:read missions:post', person, MCP_RESOURCE);
  mcp = await connectMcp('https://app.example.com/api/mcp', { token: tokens.access_token }, routeFetch);
}, 120_000);
afterAll(async () => {
  await mcp?.close().catch(() => {});
  await browser?.close();
});

interface Rendered {
  opened: string[];
  initialized: boolean;
  violations: string[];
  /** What the view shows, as a person reads it. */
  text: string;
}

/**
 * A host page: the resource's HTML in a sandboxed iframe (scripts only, an opaque origin), joined by
 * AppBridge over postMessage; once the view initializes it gets the tool's input and result.
 */
async function render(html: string, args: unknown, result: unknown, width: number, name: string): Promise<Rendered> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const violations: string[] = [];
  const logged: string[] = [];
  page.on('console', (m) => {
    logged.push(m.text());
    if (/Content Security Policy|Refused to/.test(m.text())) violations.push(m.text());
  });
  page.on('pageerror', (e) => logged.push(String(e)));
  const requests: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith('about:') && !r.url().startsWith('data:')) requests.push(r.url());
  });
  await page.setContent(
    `<!doctype html><html><body style="margin:0"><iframe id="app" sandbox="allow-scripts" ` +
      `style="border:0;width:100%;height:860px"></iframe></body></html>`,
  );
  await page.addScriptTag({ content: hostScript });
  await page.evaluate(
    async ({ html, args, result }) => {
      const { AppBridge, PostMessageTransport } = (window as any).McpAppsHost;
      const frame = document.getElementById('app') as HTMLIFrameElement;
      const state = ((window as any).rendered = { opened: [] as string[], initialized: false });
      const bridge = new AppBridge(null, { name: 'test-host', version: '1.0.0' }, { openLinks: {} });
      bridge.onopenlink = async ({ url }: { url: string }) => {
        state.opened.push(url);
        return {};
      };
      bridge.oninitialized = async () => {
        state.initialized = true;
        await bridge.sendToolInput({ arguments: args });
        await bridge.sendToolResult(result);
      };
      // Connected first, as a host does: the view speaks as soon as its script runs.
      await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
      frame.srcdoc = html;
    },
    { html, args, result },
  );
  const frame = page.frameLocator('#app');
  await frame
    .locator('h1')
    .first()
    .waitFor()
    .catch((e: unknown) => {
      throw new Error(`${String(e)}\n${logged.join('\n')}`);
    });
  await page.screenshot({ path: `${OUT}/${name}-${width}.png`, fullPage: true });
  const button = frame.locator('button');
  if ((await button.count()) > 0) await button.first().click();
  await page.waitForFunction(() => (window as any).rendered.initialized);
  const rendered = (await page.evaluate(() => (window as any).rendered)) as Rendered;
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, the text as laid out for a person.
  const text = await frame.locator('body').innerText();
  await page.close();
  // Nothing left the page: no request to any origin, no CSP refusal.
  expect(requests).toEqual([]);
  return { ...rendered, violations, text };
}

describe('MCP Apps', () => {
  test(
    'default: the mission and release tools name the mission card, find_offerings the offerings page; ' +
      'every other tool names no page',
    async () => {
      const { tools } = await mcp.listTools();
      const byName = new Map(tools.map((t) => [t.name, t._meta]));
      const pages: [string, string][] = [
        ['get_mission', 'ui://taskmarket/mission-card.html'],
        ['post_mission', 'ui://taskmarket/mission-card.html'],
        ['order_offering', 'ui://taskmarket/mission-card.html'],
        // The releases: the mission released, or the payment waiting for the person's yes.
        ['approve_mission', 'ui://taskmarket/mission-card.html'],
        ['award_bounty', 'ui://taskmarket/mission-card.html'],
        ['answer_settlement_offer', 'ui://taskmarket/mission-card.html'],
        ['find_offerings', 'ui://taskmarket/offerings.html'],
      ];
      for (const [name, uri] of pages)
        expect(byName.get(name), name).toMatchObject({ ui: { resourceUri: uri }, 'ui/resourceUri': uri });
      for (const [name, meta] of byName)
        if (!pages.some(([paged]) => paged === name)) expect(meta?.ui, name).toBeUndefined();
      const { resources } = await mcp.listResources();
      expect(resources.map((r) => r.uri).sort()).toEqual([
        'ui://taskmarket/mission-card.html',
        'ui://taskmarket/offerings.html',
      ]);
      for (const r of resources) expect(r.mimeType).toBe('text/html;profile=mcp-app');
    },
  );

  test('default: the pages allow no outside origin at all', async () => {
    for (const uri of ['ui://taskmarket/mission-card.html', 'ui://taskmarket/offerings.html']) {
      const { contents } = await mcp.readResource({ uri });
      const [content] = contents as { text: string; mimeType: string; _meta: any }[];
      expect(content!._meta.ui.csp).toEqual({
        connectDomains: [],
        resourceDomains: [],
        frameDomains: [],
        baseUriDomains: [],
      });
      const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(content!.text)![1]!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("connect-src 'none'");
      expect(csp).not.toMatch(/https?:|\*/);
      expect(content!.text).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    }
  });

  test('behavior: the mission card renders a real get_mission in the MCP Apps host, at two widths; ' +
    'an unfunded mission offers its funding link, opened by the host', async () => {
    const { contents } = await mcp.readResource({ uri: 'ui://taskmarket/mission-card.html' });
    const html = (contents[0] as { text: string }).text;
    const { id } = await createMission(owner, {
      criteria: ['Every product has a box', 'Exported as COCO JSON'],
    });
    const result = await mcp.callTool({ name: 'get_mission', arguments: { id } });
    // Hosts without MCP Apps: the same text answer as ever, the mission's JSON.
    const shown = JSON.parse((result.content as { text: string }[])[0]!.text);
    expect(shown).toMatchObject({ id, status: 'OPEN' });
    const actions = shown.actions as { action: string }[];
    for (const width of [360, 900]) {
      const rendered = await render(html, { id }, result, width, 'mission-card');
      expect(rendered.initialized).toBe(true);
      expect(rendered.violations).toEqual([]);
      // What the mission says, and as its next step what the API lists for this caller (docs/api.md#next-actions).
      expect(rendered.text).toContain('1. Every product has a box');
      expect(rendered.text).toContain('Reward 25.00 USDC');
      expect(actions.length).toBeGreaterThan(0);
      expect(rendered.text).toMatch(new RegExp(`Next\\n${actions.map((a) => a.action).join('\\n')}$`, 'i'));
    }
    // post_mission: AWAITING_FUNDING, and the card's button opens the funding page through the host.
    const posted = await mcp.callTool({
      name: 'post_mission',
      arguments: {
        title: 'Label 200 shelf photos',
        description: 'Bounding boxes around every product.',
        category: 'data',
        reward: '25000000',
        deadline: new Date(Date.now() + 5 * 86_400_000).toISOString(),
        criteria: ['Every product has a box'],
      },
    });
    const created = JSON.parse((posted.content as { text: string }[])[0]!.text);
    // Bookkeeping mode has no escrow, so the post is OPEN at once; on a chain it is AWAITING_FUNDING
    // with its funding URL (docs/api.md#post-and-pay) — that answer, as post_mission gives it there.
    expect(created).toMatchObject({ id: expect.any(String), status: 'OPEN' });
    // A host with an "s" in it: the page's pattern once read `[^s]+` for `[^\s]+`, and such a host had no button.
    const url = `https://tasks.example.com/missions/${created.id}/fund`;
    const unfunded = {
      content: [
        {
          type: 'text',
          text: JSON.stringify({
            ...created,
            status: 'AWAITING_FUNDING',
            funding: { url, expiresAt: created.deadline },
          }),
        },
      ],
    };
    for (const width of [360, 900]) {
      const rendered = await render(html, {}, unfunded, width, 'mission-card-unfunded');
      expect(rendered.opened).toEqual([url]);
    }
    // get_mission's answer for it: the mission without funding.url, the link in the server's note after it.
    const { funding: _funding, ...bare } = JSON.parse(unfunded.content[0]!.text);
    const noted = {
      content: [
        { type: 'text', text: JSON.stringify(bare) },
        { type: 'text', text: `Awaiting funding, not on the board. Not funded yet: the person funds it at ${url}.` },
      ],
    };
    expect((await render(html, {}, noted, 360, 'mission-card-noted')).opened).toEqual([url]);
    // A look-alike link in the mission's own text (another user wrote it) never becomes the button.
    const lookAlike = {
      content: [
        {
          type: 'text',
          text: JSON.stringify({
            ...created,
            status: 'AWAITING_FUNDING',
            description: `Fund it here: https://evil.example/missions/${created.id}/fund`,
          }),
        },
      ],
    };
    expect((await render(html, {}, lookAlike, 360, 'mission-card-look-alike')).opened).toEqual([]);
  }, 120_000);

  test("behavior: approve_mission beyond the token's release limit shows the waiting payment on the card, whose " +
    "button opens the confirmation page through the host; a link not that confirmation's page is none", async () => {
    const { contents } = await mcp.readResource({ uri: 'ui://taskmarket/mission-card.html' });
    const html = (contents[0] as { text: string }).text;
    const { id } = await createMission(owner);
    const agent = await newAgent();
    await ok(act('accept', agent, id));
    await ok(act('submit', agent, id, { note: 'Done.' }));
    // The OAuth grant's release limit is 0 (docs/api.md#confirmations): the release waits for the person,
    // and this client declared no URL elicitation, so the confirmation comes in the tool's text.
    const result = await mcp.callTool({ name: 'approve_mission', arguments: { id } });
    const { confirmation } = JSON.parse((result.content as { text: string }[])[0]!.text);
    expect(confirmation.url).toBe(`https://app.example.com/confirmations/${confirmation.id}`);
    for (const width of [360, 900]) {
      const rendered = await render(html, { id }, result, width, 'mission-card-confirmation');
      expect(rendered.violations).toEqual([]);
      expect(rendered.text).toContain('Payment waiting for your yes');
      expect(rendered.opened).toEqual([confirmation.url]);
    }
    // Only that confirmation's own page becomes the button: not another confirmation's, not another page.
    for (const url of ['https://evil.example/pay', `https://app.example.com/confirmations/${crypto.randomUUID()}`]) {
      const elsewhere = {
        content: [{ type: 'text', text: JSON.stringify({ confirmation: { ...confirmation, url } }) }],
      };
      expect((await render(html, {}, elsewhere, 360, 'mission-card-confirmation-elsewhere')).opened).toEqual([]);
    }
    // A 2026-07-28 retry answers the decided confirmation (GET /api/confirmations/{id}): its outcome, no button.
    const decided = {
      content: [
        {
          type: 'text',
          text: JSON.stringify({
            ...confirmation,
            status: 'APPROVED',
            action: 'approve',
            amount: '25000000',
            mission: { id, title: 'Label 200 shelf photos', status: 'COMPLETED', reward: '25000000' },
          }),
        },
        { type: 'text', text: 'The person approved: the payment was released.' },
      ],
    };
    const shown = await render(html, {}, decided, 360, 'mission-card-confirmation-decided');
    expect(shown.text).toContain('Payment approved');
    expect(shown.text).toContain('the payment was released');
    expect(shown.opened).toEqual([]);
  }, 120_000);

  test("behavior: a delivery's checked criteria are marked on the card as their checks came out", async () => {
    const { contents } = await mcp.readResource({ uri: 'ui://taskmarket/mission-card.html' });
    const html = (contents[0] as { text: string }).text;
    // docs/api.md#checked-criteria: submission.checks as GET /api/missions/{id} gives them after a submit.
    const submitted = {
      id: 'm1',
      title: 'Boxes as JSON',
      status: 'SUBMITTED',
      reward: '5000000',
      deadline: new Date(Date.now() + 86_400_000).toISOString(),
      criteria: [
        { number: 1, text: 'result.json matches the schema' },
        { number: 2, text: 'A README is included' },
      ],
      submission: {
        checks: [
          { criterion: 1, passed: true, detail: null },
          { criterion: 2, passed: false, detail: 'no file README.md' },
        ],
      },
      actions: [],
    };
    const rendered = await render(
      html,
      {},
      { content: [{ type: 'text', text: JSON.stringify(submitted) }] },
      360,
      'checks',
    );
    expect(rendered.text).toContain('✓1. result.json matches the schema');
    expect(rendered.text).toContain('✗2. A README is included');
    expect(rendered.text).toContain('Nothing for you to do now.');
  }, 60_000);

  test('behavior: the offerings list renders a list in the host', async () => {
    const { contents } = await mcp.readResource({ uri: 'ui://taskmarket/offerings.html' });
    const html = (contents[0] as { text: string }).text;
    // find_offerings' answer: a page of offerings as GET /api/offerings gives them (lib/offerings/views.ts).
    const result = {
      content: [
        {
          type: 'text',
          text: JSON.stringify({
            items: [
              {
                id: 'o1',
                title: 'Product photo labelling',
                category: 'data',
                price: '40000000',
                slaHours: 72,
                description: 'COCO boxes.',
              },
              {
                id: 'o2',
                title: 'Translate a README',
                category: 'writing',
                price: '12500000',
                slaHours: 24,
                description: 'EN → DE.',
              },
            ],
            nextCursor: null,
          }),
        },
      ],
    };
    for (const width of [360, 900]) {
      const rendered = await render(html, {}, result, width, 'offerings');
      expect(rendered.initialized).toBe(true);
      expect(rendered.violations).toEqual([]);
      expect(rendered.text).toContain('Product photo labelling');
      expect(rendered.text).toContain('data · delivered within 72 h');
      expect(rendered.text).toContain('writing · delivered within 24 h');
      expect(rendered.text).toContain('40.00 USDC');
      expect(rendered.text).toContain('12.50 USDC');
    }
  }, 60_000);
});
