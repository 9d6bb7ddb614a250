// The agent's leash, through the real endpoints (docs/api.md#least-privilege, #step-up, #audience): a
// client is told to ask for little, gets little when it asks for nothing, is told exactly what to
// re-authorize for when it needs more (on REST routes and on /api/mcp, where the MCP SDK's own client
// steps up by itself), and holds tokens bound to the one resource they were issued for (RFC 8707).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, test } from 'vitest';
import { GET as me } from '@/app/api/auth/me/route';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
import { DELETE as deleteMcp, GET as getMcp, POST as postMcp } from '@/app/api/mcp/route';
import { GET as serverMetadata } from '@/app/api/oauth/metadata/authorization-server/route';
import { GET as resourceMetadata } from '@/app/api/oauth/metadata/protected-resource/route';
import { POST as registerRoute } from '@/app/api/oauth/register/route';
import { POST as tokenRoute } from '@/app/api/oauth/token/route';
import { GET as webhooks } from '@/app/api/webhooks/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { MemoryOAuthProvider } from '../support/oauth-client';
import {
  API_RESOURCE,
  approve,
  authorizeParams,
  connect,
  exchange,
  MCP_RESOURCE,
  ORIGIN,
  personalToken,
  pkce,
  REDIRECT_URI,
  registerClient,
} from '../support/oauth';
import { signIn } from '../support/wallets';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000', MCP_RATE_LIMIT_PER_MINUTE: '100000' });

const WELL_KNOWN = `${ORIGIN}/.well-known/oauth-protected-resource`;
const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const toolsList = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const toolCall = (name: string, args: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name, arguments: args, ...extra },
});
const mcp = (token: string | undefined, body: unknown = toolsList) =>
  call(postMcp, { token, headers: MCP_HEADERS, body });

/** An authorization without `resource` (or `scope`, when `scope` is undefined), exchanged likewise. */
async function connectBare(scope: string | undefined) {
  const user = await signIn();
  const client = await registerClient();
  const { verifier, challenge } = pkce();
  const { resource: _, scope: asked, ...params } = authorizeParams(client.client_id, challenge);
  const location = await approve(user, scope === undefined ? params : { ...params, scope: scope ?? asked });
  const fields = {
    grant_type: 'authorization_code',
    code: location.searchParams.get('code')!,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
  };
  return { user, client, answer: await exchange({ ...fields, client_id: client.client_id }) };
}

describe('ask for little', () => {
  test('default: each resource has its metadata, listing the least scopes; the server names both', async () => {
    const mcpDocument = await call(resourceMetadata, { path: '/.well-known/oauth-protected-resource/api/mcp' });
    expect(mcpDocument).toMatchObject({
      status: 200,
      body: { resource: MCP_RESOURCE, authorization_servers: [ORIGIN] },
    });
    // docs/api.md#least-privilege: the default set, so a client that falls back to it asks for little;
    // the authorization server's metadata still names every scope.
    expect(mcpDocument.body.scopes_supported).toEqual(['missions:read', 'missions:work']);
    expect((await call(serverMetadata)).body.scopes_supported).toEqual([
      'missions:read',
      'missions:work',
      'missions:post',
      'earnings:claim',
      'webhooks',
    ]);
    const apiDocument = await call(resourceMetadata, { path: '/.well-known/oauth-protected-resource/api' });
    expect(apiDocument).toMatchObject({
      status: 200,
      body: { resource: API_RESOURCE, scopes_supported: mcpDocument.body.scopes_supported },
    });
    // The root document stays the MCP endpoint's; a path naming no resource of ours has none (RFC 9728 §3.3).
    expect((await call(resourceMetadata, { path: '/.well-known/oauth-protected-resource' })).body.resource).toBe(
      MCP_RESOURCE,
    );
    expect((await call(resourceMetadata, { path: '/.well-known/oauth-protected-resource/api/missions' })).status).toBe(
      404,
    );
    expect((await call(serverMetadata)).body.protected_resources).toEqual([MCP_RESOURCE, API_RESOURCE]);
  });

  test('default: a 401 from /api/mcp asks for missions:read and missions:work, naming its metadata', async () => {
    for (const answer of [await mcp(undefined), await call(getMcp), await call(deleteMcp, { method: 'DELETE' })]) {
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe(
        `Bearer resource_metadata="${WELL_KNOWN}/api/mcp", scope="missions:read missions:work"`,
      );
    }
    const bad = await mcp('a.b.c');
    expect(bad.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${WELL_KNOWN}/api/mcp", scope="missions:read missions:work", error="invalid_token"`,
    );
  });

  test("behavior: a REST route's 401 names the API's metadata, and adds the scope the route needs", async () => {
    const answer = await call(webhooks);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${WELL_KNOWN}/api", scope="missions:read missions:work webhooks"`,
    );
  });

  test('default: an authorization request without scope gets missions:read and missions:work', async () => {
    const { answer } = await connectBare(undefined);
    expect(answer).toMatchObject({ status: 200, body: { scope: 'missions:read missions:work' } });
  });
});

describe('step up when needed', () => {
  test(
    'error: a tools/call needing a scope the token lacks is an HTTP 403 with the challenge, ' + 'not a tool error',
    async () => {
      const agent = await signIn();
      await call(registerAgent, { method: 'POST', token: agent.token });
      const { tokens } = await connect('missions:read', agent, MCP_RESOURCE);
      const challenge =
        `Bearer error="insufficient_scope", scope="missions:read earnings:claim", ` +
        `resource_metadata="${WELL_KNOWN}/api/mcp"`;
      const plain = await mcp(tokens.access_token, toolCall('get_earnings'));
      expect(plain).toMatchObject({ status: 403, body: { error: 'Token lacks the earnings:claim scope' } });
      expect(plain.headers.get('www-authenticate')).toBe(challenge);
      // The SDK's own server path (a message the plain path leaves to it) answers the same.
      const bySdk = await mcp(tokens.access_token, toolCall('get_earnings', {}, { _meta: {} }));
      expect({ status: bySdk.status, body: bySdk.body, challenge: bySdk.headers.get('www-authenticate') }).toEqual({
        status: 403,
        body: plain.body,
        challenge,
      });
      // Within its scopes the same token goes on working.
      expect(await mcp(tokens.access_token, toolCall('find_missions', { limit: 1 }))).toMatchObject({
        status: 200,
        body: { result: {} },
      });
    },
  );

  test(
    "behavior: the MCP SDK's client steps up on the challenge and retries the call with the " + 'wider token',
    async () => {
      const user = await signIn();
      await call(registerAgent, { method: 'POST', token: user.token });
      const asked: string[] = [];
      const provider = new MemoryOAuthProvider(
        REDIRECT_URI,
        { client_name: 'Step-up Agent', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' },
        async (url) => {
          asked.push(url.searchParams.get('scope') ?? '');
          consented = await approve(user, Object.fromEntries(url.searchParams));
        },
      );
      let consented: URL | undefined;
      // This SDK refreshes before it re-authorizes, and a refresh never widens a grant (RFC 6749 §6;
      // modelcontextprotocol/typescript-sdk#2255): a client that keeps no refresh token steps up.
      const keep = provider.saveTokens;
      provider.saveTokens = ({ refresh_token: _, ...tokens }) => keep(tokens);
      const routes: Record<
        string,
        (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>
      > = {
        'GET /.well-known/oauth-protected-resource/api/mcp': resourceMetadata,
        'GET /.well-known/oauth-authorization-server': serverMetadata,
        'POST /api/oauth/register': registerRoute,
        'POST /api/oauth/token': tokenRoute,
        'POST /api/mcp': postMcp,
        'GET /api/mcp': getMcp,
        'DELETE /api/mcp': deleteMcp,
      };
      const fetch: typeof globalThis.fetch = async (input, init) => {
        const request = new Request(input, init);
        request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress('10.8.8.8'));
        const handler = routes[`${request.method} ${new URL(request.url).pathname}`];
        return handler ? handler(request, { params: Promise.resolve({}) }) : new Response('not found', { status: 404 });
      };
      // The first connection is sent to the authorize page; the client connects again once it has a token.
      const first = new StreamableHTTPClientTransport(new URL(MCP_RESOURCE), { authProvider: provider, fetch });
      await expect(new Client({ name: 'step-up-test', version: '1.0.0' }).connect(first)).rejects.toThrow(
        UnauthorizedError,
      );
      await first.finishAuth(consented!.searchParams.get('code')!);
      const transport = new StreamableHTTPClientTransport(new URL(MCP_RESOURCE), { authProvider: provider, fetch });
      const client = new Client({ name: 'step-up-test', version: '1.0.0' });
      await client.connect(transport);
      expect(provider.tokens()).toMatchObject({ scope: 'missions:read missions:work' });
      // get_earnings needs earnings:claim: the 403's challenge sends the client back to the authorize page.
      await expect(client.callTool({ name: 'get_earnings', arguments: {} })).rejects.toThrow(UnauthorizedError);
      await transport.finishAuth(consented!.searchParams.get('code')!);
      const earnings = await client.callTool({ name: 'get_earnings', arguments: {} });
      expect(earnings.isError).toBeFalsy();
      expect(asked).toEqual(['missions:read missions:work', 'missions:read missions:work earnings:claim']);
      await client.close();
    },
  );
});

describe('audience', () => {
  test('default: a token issued without resource is for /api/mcp: accepted there, 401 on the REST routes', async () => {
    const { answer } = await connectBare('missions:read');
    const token = answer.body.access_token as string;
    expect((await mcp(token)).status).toBe(200);
    expect((await mcp(token, toolCall('find_missions', { limit: 1 }))).body.result.isError).toBeFalsy();
    const refused = await call(me, { token });
    expect(refused).toMatchObject({ status: 401, body: { error: 'Token was issued for another resource' } });
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${WELL_KNOWN}/api", scope="missions:read missions:work", error="invalid_token"`,
    );
  });

  test('behavior: a token issued for /api works on the REST routes only', async () => {
    const { user, tokens } = await connect('missions:read', undefined, API_RESOURCE);
    expect(await call(me, { token: tokens.access_token })).toMatchObject({
      status: 200,
      body: { user: { id: user.user.id } },
    });
    const refused = await mcp(tokens.access_token);
    expect(refused).toMatchObject({ status: 401, body: { error: 'Token was issued for another resource' } });
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  test('behavior: a refresh keeps the resource; naming the other one is invalid_target', async () => {
    const { client, tokens } = await connect('missions:read', undefined, API_RESOURCE);
    const refresh = (refreshToken: string, extra: Record<string, string> = {}) =>
      exchange({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.client_id, ...extra });
    const renewed = await refresh(tokens.refresh_token);
    expect(renewed.status).toBe(200);
    expect((await call(me, { token: renewed.body.access_token })).status).toBe(200);
    expect((await mcp(renewed.body.access_token)).status).toBe(401);
    expect(await refresh(renewed.body.refresh_token, { resource: MCP_RESOURCE })).toMatchObject({
      status: 400,
      body: { error: 'invalid_target' },
    });
  });

  test("behavior: becoming an agent keeps the token's resource", async () => {
    const { tokens } = await connect('missions:read missions:work', undefined, API_RESOURCE);
    const promoted = await call(registerAgent, { method: 'POST', token: tokens.access_token });
    expect(promoted.status).toBe(200);
    expect((await call(me, { token: promoted.body.token })).status).toBe(200);
    expect((await mcp(promoted.body.token)).status).toBe(401);
  });

  test('behavior: personal access tokens and wallet sign-ins work on both, as before', async () => {
    const user = await signIn();
    const { token } = await personalToken(user, ['missions:read']);
    for (const credential of [token, user.token]) {
      expect((await call(me, { token: credential })).status).toBe(200);
      expect((await mcp(credential)).status).toBe(200);
    }
  });

  test(
    'error: a resource that is not ours is invalid_target (RFC 8707), at the authorize page ' +
      'and the token endpoint',
    async () => {
      const user = await signIn();
      const client = await registerClient();
      const { verifier, challenge } = pkce();
      for (const resource of [
        'https://evil.example/api/mcp',
        `${ORIGIN}/api/missions`,
        `${ORIGIN}/api/mcp?x=1`,
        `${ORIGIN}/api#frag`,
        'not a url',
      ]) {
        await expect(approve(user, authorizeParams(client.client_id, challenge, { resource }))).rejects.toThrow(
          /invalid_target/,
        );
      }
      const code = (
        await approve(user, authorizeParams(client.client_id, challenge, { resource: API_RESOURCE }))
      ).searchParams.get('code')!;
      const base = {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT_URI,
        client_id: client.client_id,
      };
      expect(await exchange({ ...base, resource: 'https://evil.example' })).toMatchObject({
        status: 400,
        body: { error: 'invalid_target' },
      });
      // Ours, but not the one the authorization was for.
      expect(await exchange({ ...base, resource: MCP_RESOURCE })).toMatchObject({
        status: 400,
        body: { error: 'invalid_target' },
      });
      // Scheme and host compare without case, as the MCP authorization spec asks.
      expect(
        (await connect('missions:read', undefined, MCP_RESOURCE.replace('https://app', 'HTTPS://APP'))).tokens
          .access_token,
      ).toBeTruthy();
    },
  );
});
