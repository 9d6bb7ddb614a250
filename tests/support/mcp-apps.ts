// What a host that renders MCP Apps reads from our server (docs/api.md#mcp-apps), asserted alike on every
// transport and protocol era: the pages the tools name, exactly those listed, each read as an MCP App
// with a CSP that allows no origin. The expectations are the MCP Apps SDK's own (ext-apps' MIME type,
// meta key and resource-meta schema), not our constants, so a drift from the extension fails here.
import { McpUiResourceMetaSchema, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps';
import { expect } from 'vitest';

export const UI_PAGES = ['ui://taskmarket/mission-card.html', 'ui://taskmarket/offerings.html'];

type Meta = Record<string, unknown> | undefined;

/** The part of an MCP client (the 1.x SDK's or the v2 one's) a host uses for MCP Apps. */
export interface AppsClient {
  listTools(): Promise<{ tools: { name: string; _meta?: Meta }[] }>;
  listResources(): Promise<{ resources: { uri: string; mimeType?: string; _meta?: Meta }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: { uri: string; mimeType?: string; _meta?: Meta }[] }>;
}

/** No domain of any kind (ext-apps McpUiResourceCsp: an empty list is none). */
const NO_DOMAINS = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

/**
 * Asserts that `client`'s server lists exactly the ui:// pages its tools name in `_meta.ui.resourceUri`
 * (no page no tool shows, none twice) and answers each resources/read as an MCP App HTML document
 * with its CSP, in the page and in `_meta.ui`.
 */
export async function expectUiPagesServed(client: AppsClient): Promise<void> {
  const { tools } = await client.listTools();
  const named = new Set<string>();
  for (const tool of tools) {
    const uri = (tool._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
    if (uri === undefined) continue;
    // Hosts that read the older key are shown the same page.
    expect(tool._meta?.[RESOURCE_URI_META_KEY], tool.name).toBe(uri);
    named.add(uri);
  }
  // Pinned, so that two empty sets never pass as "the same".
  expect([...named].sort()).toEqual(UI_PAGES);
  const { resources } = await client.listResources();
  expect(resources.map((r) => r.uri).sort()).toEqual(UI_PAGES);
  for (const listed of resources) {
    expect(listed.mimeType, listed.uri).toBe(RESOURCE_MIME_TYPE);
    const { contents } = await client.readResource({ uri: listed.uri });
    expect(contents, listed.uri).toHaveLength(1);
    const [content] = contents as { uri: string; mimeType?: string; text?: string; _meta?: Meta }[];
    expect(content).toMatchObject({ uri: listed.uri, mimeType: RESOURCE_MIME_TYPE });
    expect(content!.text, listed.uri).toMatch(/^<!doctype html>[\s\S]*<\/html>$/i);
    // The CSP a host applies (_meta.ui, valid by the extension's schema), in the listing and the read alike,
    // and the page's own, which holds even in a host that ignores the first.
    const ui = McpUiResourceMetaSchema.parse(content!._meta?.ui);
    expect(ui.csp, listed.uri).toEqual(NO_DOMAINS);
    expect(listed._meta?.ui, listed.uri).toEqual(content!._meta?.ui);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(content!.text!)?.[1];
    expect(csp, listed.uri).toContain("default-src 'none'");
    expect(csp, listed.uri).toContain("connect-src 'none'");
    expect(csp, listed.uri).not.toMatch(/https?:|\*/);
  }
  // A ui:// page no tool names is not served either: the protocol's invalid-params error.
  await expect(client.readResource({ uri: 'ui://taskmarket/other.html' })).rejects.toMatchObject({ code: -32602 });
}
