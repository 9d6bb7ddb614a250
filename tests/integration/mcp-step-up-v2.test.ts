// How the MCP SDK's v2 client (@modelcontextprotocol/client) handles the step-up challenge
// (docs/agents.md#step-up-by-client), measured: with its refresh token kept — what 1.x could not do
// without help (tests/faults/agent-leash.test.ts) — a 403 insufficient_scope sends it to a fresh
// authorization for the union of the scopes, and the same call goes through on the wider token. Both
// eras: the default 2025 handshake and a client pinned to 2026-07-28.
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { describe, expect, test } from 'vitest';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
import { DELETE as deleteMcp, GET as getMcp, POST as postMcp } from '@/app/api/mcp/route';
import { GET as serverMetadata } from '@/app/api/oauth/metadata/authorization-server/route';
import { GET as resourceMetadata } from '@/app/api/oauth/metadata/protected-resource/route';
import { POST as registerRoute } from '@/app/api/oauth/register/route';
import { POST as tokenRoute } from '@/app/api/oauth/token/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { MemoryOAuthProvider } from '../support/oauth-client';
import { approve, MCP_RESOURCE, REDIRECT_URI } from '../support/oauth';
import { signIn } from '../support/wallets';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000', MCP_RATE_LIMIT_PER_MINUTE: '100000' });

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
const routes: Record<string, Handler> = {
  'GET /.well-known/oauth-protected-resource/api/mcp': resourceMetadata,
  'GET /.well-known/oauth-protected-resource': resourceMetadata,
  'GET /.well-known/oauth-authorization-server': serverMetadata,
  'POST /api/oauth/register': registerRoute,
  'POST /api/oauth/token': tokenRoute,
  'POST /api/mcp': postMcp,
  'GET /api/mcp': getMcp,
  'DELETE /api/mcp': deleteMcp,
};
const fetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress('10.8.8.9'));
  const handler = routes[`${request.method} ${new URL(request.url).pathname}`];
  return handler ? handler(request, { params: Promise.resolve({}) }) : new Response('not found', { status: 404 });
};

describe('step-up with the v2 client', () => {
  test.each([
    ['the 2025 handshake', undefined],
    ['pinned to 2026-07-28', { mode: { pin: '2026-07-28' } } as const],
  ])(
    'behavior: %s — on the 403 it asks the person for the wider scope, refresh token and all; the call goes through',
    async (_era, versionNegotiation) => {
      const user = await signIn();
      await call(registerAgent, { method: 'POST', token: user.token });
      const asked: string[] = [];
      let consented: URL | undefined;
      const provider = new MemoryOAuthProvider(
        REDIRECT_URI,
        { client_name: 'Step-up v2', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' },
        async (url) => {
          asked.push(url.searchParams.get('scope') ?? '');
          consented = await approve(user, Object.fromEntries(url.searchParams));
        },
      );
      const options = versionNegotiation ? { versionNegotiation } : {};
      const first = new StreamableHTTPClientTransport(new URL(MCP_RESOURCE), {
        authProvider: provider as never,
        fetch,
      });
      await expect(new Client({ name: 'step-up-v2', version: '1.0.0' }, options).connect(first)).rejects.toThrow(
        UnauthorizedError,
      );
      await first.finishAuth(consented!.searchParams);
      expect(provider.tokens()).toMatchObject({
        scope: 'missions:read missions:work',
        refresh_token: expect.any(String),
      });
      const transport = new StreamableHTTPClientTransport(new URL(MCP_RESOURCE), {
        authProvider: provider as never,
        fetch,
      });
      const client = new Client({ name: 'step-up-v2', version: '1.0.0' }, options);
      await client.connect(transport);
      // get_earnings needs earnings:claim: the challenge sends the client to the authorize page for it.
      const stepped = await client.callTool({ name: 'get_earnings', arguments: {} }).catch((e: unknown) => e);
      expect(asked).toEqual(['missions:read missions:work', 'missions:read missions:work earnings:claim']);
      // Sent to consent mid-call (a fresh authorization, though it holds a refresh token): the call
      // rejects with UnauthorizedError; the host finishes the authorization and calls again.
      expect(stepped).toBeInstanceOf(UnauthorizedError);
      await transport.finishAuth(consented!.searchParams);
      const earnings = await client.callTool({ name: 'get_earnings', arguments: {} });
      expect((earnings as { isError?: boolean }).isError).toBeFalsy();
      expect(provider.tokens()?.scope?.split(' ').sort()).toEqual(['earnings:claim', 'missions:read', 'missions:work']);
      await client.close();
    },
  );
});
