// The MCP server card (docs/api.md#server-card): served where discovery tools look for it, linked from
// /skill.md, and describing the server /api/mcp is — its endpoint, the revisions it answers (the ones
// the SDKs it is built on serve), and its authorization, from the same values those answer.
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { GET as serverCard } from '@/app/api/mcp/server-card/route';
import { GET as resourceMetadata } from '@/app/api/oauth/metadata/protected-resource/route';
import { GET as skill } from '@/app/skill.md/route';
import nextConfig from '@/next.config';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';

useTestEnvironment(BOOKKEEPING);

describe('server card', () => {
  test('default: served at /.well-known/mcp/server-card.json, naming /api/mcp, revisions, authorization', async () => {
    const rewrites = (await nextConfig.rewrites!()) as { source: string; destination: string }[];
    expect(rewrites).toContainEqual({
      source: '/.well-known/mcp/server-card.json',
      destination: '/api/mcp/server-card',
    });
    const { status, body, headers } = await call(serverCard, { path: '/.well-known/mcp/server-card.json' });
    expect(status).toBe(200);
    expect(headers.get('access-control-allow-origin')).toBe('*');
    const metadata = (await call(resourceMetadata, { path: '/.well-known/oauth-protected-resource/api/mcp' })).body;
    expect(body).toMatchObject({
      $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
      title: 'taskmarket',
      remotes: [
        {
          type: 'streamable-http',
          url: metadata.resource,
          authorization: { scopes: metadata.scopes_supported },
        },
      ],
    });
    // SEP-2127's name: reverse DNS, exactly one slash.
    expect(body.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.description.length).toBeGreaterThan(0);
    expect(body.description.length).toBeLessThanOrEqual(100);
    // Every revision the 2025 path's SDK answers, and 2026-07-28 (docs/api.md#mcp-protocol-eras).
    expect(body.remotes[0].supportedProtocolVersions.sort()).toEqual(
      ['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS].sort(),
    );
  });

  test('default: /skill.md links it', async () => {
    const text = (await call(skill, { path: '/skill.md' })).body as string;
    expect(text).toContain('/.well-known/mcp/server-card.json');
  });
});
