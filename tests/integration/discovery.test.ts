// docs/api.md#discovery: /skill.md tells an agent how to connect — every tool the MCP server lists,
// with its arguments, and the limits with this deployment's values — and /llms.txt points at it and
// at the API guide, every link answered by this app.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_INLINE_FILE_BYTES } from '@taskmarket/sdk/mcp';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { POST as mcp } from '@/app/api/mcp/route';
import { ROUTE_TABLE } from '@/app/api/documented-routes';
import { GET as apiGuide } from '@/app/docs/api.md/route';
import DocsPage from '@/app/docs/page';
import { GET as llms } from '@/app/llms.txt/route';
import { GET as skill } from '@/app/skill.md/route';
import nextConfig from '@/next.config';
import { SCOPES } from '@/lib/oauth/scopes';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { call, type CallResult } from '../support/http';
import { signIn } from '../support/wallets';

// Values no default has, so the documents must have read them from the configuration.
useTestEnvironment({
  ...BOOKKEEPING,
  MCP_RATE_LIMIT_PER_MINUTE: '37',
  MCP_MAX_CONCURRENT: '5',
  WRITE_RATE_LIMIT_PER_MINUTE: '41',
});

const ORIGIN = 'https://app.example.com';
type Handler = Parameters<typeof call>[0];
type ListedTool = { name: string; title: string; inputSchema: { properties?: Record<string, unknown> } };

/** The tools /api/mcp lists, asked as an MCP client asks. */
async function listedTools(): Promise<ListedTool[]> {
  const { token } = await signIn();
  const answer = await call(mcp, {
    path: '/api/mcp',
    token,
    headers: { accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  });
  expect(answer.status).toBe(200);
  return answer.body.result.tools;
}

/** The handler a path on this origin reaches: a route file, or a next.config.ts rewrite to one. */
async function resolve(path: string): Promise<Handler> {
  const site: Record<string, Handler> = { '/skill.md': skill, '/llms.txt': llms, '/docs/api.md': apiGuide };
  if (site[path]) return site[path];
  const rewrites = (await nextConfig.rewrites!()) as { source: string; destination: string }[];
  const rewrite = rewrites.find(
    ({ source }) =>
      source === path || (source.endsWith('/:path*') && path.startsWith(source.slice(0, -'/:path*'.length) + '/')),
  );
  const template = rewrite?.destination ?? path;
  const module = ROUTE_TABLE.find(([candidate]) => candidate === template)?.[1];
  if (!module?.GET) throw new Error(`${path} reaches no route`);
  return module.GET;
}

const markdownLinks = (text: string) =>
  [...text.matchAll(/\[([^\]]+)\]\(([^)\s]+)\)/g)].map(([, title, url]) => ({ title: title!, url: url! }));

function expectDocument(response: CallResult, type: string) {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
  expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
}

describe('discovery (docs/api.md#discovery)', () => {
  test('behavior: /skill.md names every tool /api/mcp lists, each with its arguments, and no other', async () => {
    const document = await call(skill, { path: '/skill.md' });
    expectDocument(document, 'text/markdown');
    const text = document.body as string;
    // Agent Skills front matter: a name and a description.
    expect(text).toMatch(/^---\nname: taskmarket\ndescription: \S[\s\S]*?\n---\n/);
    const sections = new Map(
      text
        .split('\n### ')
        .slice(1)
        .map((section) => [/^`([^`]+)`/.exec(section)![1]!, section.split('\n## ')[0]!] as const),
    );
    const tools = await listedTools();
    expect(tools.length).toBeGreaterThan(10);
    expect([...sections.keys()].sort()).toEqual(tools.map(({ name }) => name).sort());
    for (const tool of tools) {
      const section = sections.get(tool.name)!;
      expect(section, tool.name).toContain(tool.title);
      for (const argument of Object.keys(tool.inputSchema.properties ?? {}))
        expect(section, `${tool.name} ${argument}`).toContain(`- \`${argument}\` (`);
    }
    expect(text).toContain(`## Tools (${tools.length})`);
  });

  test(
    'behavior: /skill.md gives the MCP URL, where to authorize, the scopes, and the limits ' +
      'at their configured values',
    async () => {
      const text = (await call(skill, { path: '/skill.md' })).body as string;
      expect(text).toContain(`MCP server: \`${ORIGIN}/api/mcp\``);
      expect(text).toContain(`${ORIGIN}/.well-known/oauth-protected-resource/api/mcp`);
      expect(text).toContain(`${ORIGIN}/.well-known/oauth-authorization-server`);
      expect(text).toContain(`${ORIGIN}/api/oauth/register`);
      for (const scope of SCOPES) expect(text).toContain(`- \`${scope}\`: `);
      expect(text).toContain(
        '- Requests to the MCP server, per user (all its tokens together): 37 a minute (`MCP_RATE_LIMIT_PER_MINUTE`)',
      );
      expect(text).toContain('per user: 41 a minute (`WRITE_RATE_LIMIT_PER_MINUTE`), then `429`');
      expect(text).toContain('- MCP requests in progress on one server instance: 5 (`MCP_MAX_CONCURRENT`), then `503`');
      expect(text).toContain(`answers a file of up to ${MAX_INLINE_FILE_BYTES} bytes (1 MB) inline`);
      expect(MAX_INLINE_FILE_BYTES).toBe(1024 * 1024);
    },
  );

  test('behavior: /llms.txt follows the convention and every link it has is answered by this app', async () => {
    const document = await call(llms, { path: '/llms.txt' });
    expectDocument(document, 'text/plain');
    const text = document.body as string;
    expect(text).toMatch(/^# taskmarket\n\n> \S/);
    const links = markdownLinks(text);
    expect(links.map(({ url }) => new URL(url).pathname)).toEqual(
      expect.arrayContaining(['/skill.md', '/docs/api.md', '/docs', '/api/openapi.json']),
    );
    for (const { url } of links) {
      expect(url.startsWith(`${ORIGIN}/`), url).toBe(true);
      const path = new URL(url).pathname;
      if (path === '/docs') {
        // The reference page: rendered as Next.js renders it.
        expect(renderToStaticMarkup(DocsPage())).toContain('<h1>');
        continue;
      }
      const answer = await call(await resolve(path), { path });
      expect(answer.status, url).toBe(200);
    }
  });

  test('behavior: /docs/api.md is docs/api.md as written', async () => {
    const document = await call(apiGuide, { path: '/docs/api.md' });
    expectDocument(document, 'text/markdown');
    expect(document.body).toBe(readFileSync(join(process.cwd(), 'docs', 'api.md'), 'utf8'));
  });
});
