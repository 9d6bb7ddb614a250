// docs/api.md#cors: a browser-based OAuth or MCP client on another origin can discover, register, get
// and revoke tokens and call /api/mcp — any origin, never with credentials — and every other route,
// the cookie routes first, gives a page of another origin nothing new.
import { describe, expect, test } from 'vitest';
import { ROUTE_TABLE } from '@/app/api/documented-routes';
import * as mcp from '@/app/api/mcp/route';
import * as serverCard from '@/app/api/mcp/server-card/route';
import * as authorizationServer from '@/app/api/oauth/metadata/authorization-server/route';
import * as protectedResource from '@/app/api/oauth/metadata/protected-resource/route';
import * as register from '@/app/api/oauth/register/route';
import * as revoke from '@/app/api/oauth/revoke/route';
import * as token from '@/app/api/oauth/token/route';
import { POST as logout } from '@/app/api/auth/logout/route';
import { GET as me } from '@/app/api/auth/me/route';
import { POST as verify } from '@/app/api/auth/verify/route';
import nextConfig from '@/next.config';
import type { RouteModule } from '@/lib/http/route-table';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { call, type CallResult } from '../support/http';
import { callForm, REDIRECT_URI } from '../support/oauth';
import { signIn } from '../support/wallets';

const PAGE = 'https://client.example';
// docs/api.md#mcp: a browser-based MCP client's origin is served once the operator lists it.
useTestEnvironment({ ...BOOKKEEPING, MCP_ALLOWED_ORIGINS: PAGE });
const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', origin: PAGE };
const PING = { jsonrpc: '2.0', id: 1, method: 'ping' };

/** The CORS endpoints, by template, with the methods each preflight names. */
const CORS_ROUTES: [template: string, module: RouteModule & { OPTIONS?: unknown }, methods: string][] = [
  ['/api/oauth/metadata/authorization-server', authorizationServer, 'GET'],
  ['/api/oauth/metadata/protected-resource', protectedResource, 'GET'],
  ['/api/oauth/register', register, 'POST'],
  ['/api/oauth/token', token, 'POST'],
  ['/api/oauth/revoke', revoke, 'POST'],
  ['/api/mcp', mcp, 'GET, POST, DELETE'],
  // docs/api.md#server-card: a directory's page reads the card.
  ['/api/mcp/server-card', serverCard, 'GET'],
];
/** Public files any page may read: a simple GET needs no preflight, so these have no OPTIONS. */
const READABLE_FILES = [
  '/api/agents/[address]/registration.json',
  '/api/missions/[id]/feedback.json',
  // docs/api.md#client-feedback: whose ERC-8004 feedback is ours, for any reader.
  '/api/public/reputation',
];

type Handler = Parameters<typeof call>[0];

const accessControl = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith('access-control-'));

/** A cross-origin answer a browser lets the page read: any origin, the two headers exposed, no credentials. */
function expectReadable(response: CallResult) {
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('access-control-expose-headers')).toBe('WWW-Authenticate, x-request-id');
  expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  expect(response.headers.get('x-request-id')).toBeTruthy();
}

describe('CORS (docs/api.md#cors)', () => {
  test.each(CORS_ROUTES)(
    'behavior: a preflight to %s is 204 with exactly the CORS headers, never credentials',
    async (template, module, methods) => {
      const preflight = await call(module.OPTIONS as Handler, {
        method: 'OPTIONS',
        path: template,
        headers: {
          origin: PAGE,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.body).toBe('');
      expect(
        Object.fromEntries(accessControl(preflight.headers).map((name) => [name, preflight.headers.get(name)])),
      ).toEqual({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': methods,
        'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
        'access-control-expose-headers': 'WWW-Authenticate, x-request-id',
        'access-control-max-age': '7200',
      });
    },
  );

  test(
    'behavior: the CORS routes are exactly the seven and the three files, and the metadata ' +
      'paths under /.well-known reach them',
    async () => {
      const withCors = ROUTE_TABLE.filter(([, module]) => {
        const handlers = Object.values(module) as { options?: { cors?: true } }[];
        return 'OPTIONS' in module || handlers.some((handler) => handler.options?.cors);
      }).map(([template]) => template);
      expect(withCors.sort()).toEqual([...CORS_ROUTES.map(([template]) => template), ...READABLE_FILES].sort());
      // Every method a CORS route serves answers with the CORS headers (route()'s `cors` option).
      for (const [template, module, methods] of CORS_ROUTES) {
        for (const method of methods.split(', ') as (keyof RouteModule)[])
          expect(module[method]?.options?.cors, `${method} ${template}`).toBe(true);
      }
      const rewrites = (await nextConfig.rewrites!()) as { source: string; destination: string }[];
      const wellKnown = rewrites.filter((r) => r.source.startsWith('/.well-known/oauth-')).map((r) => r.destination);
      expect(new Set(wellKnown)).toEqual(
        new Set(['/api/oauth/metadata/authorization-server', '/api/oauth/metadata/protected-resource']),
      );
    },
  );

  test(
    'behavior: the metadata documents, register, token and revoke answers are readable from ' +
      'another origin, errors too',
    async () => {
      const headers = { origin: PAGE };
      for (const module of [authorizationServer, protectedResource]) {
        const document = await call(module.GET!, { path: '/.well-known/oauth-authorization-server', headers });
        expect(document.status).toBe(200);
        expectReadable(document);
      }
      const registered = await call(register.POST!, {
        headers,
        body: { client_name: 'Browser Agent', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' },
      });
      expect(registered.status).toBe(201);
      expectReadable(registered);
      const refusedRegistration = await call(register.POST!, {
        headers,
        body: { client_name: 'x', redirect_uris: ['ftp://x'] },
      });
      expect(refusedRegistration.status).toBe(400);
      expectReadable(refusedRegistration);

      const badGrant = await callForm(
        token.POST!,
        { grant_type: 'authorization_code', code: 'nope', client_id: registered.body.client_id },
        { headers },
      );
      expect(badGrant).toMatchObject({
        status: 400,
        body: { error: expect.any(String), error_description: expect.any(String) },
      });
      expectReadable(badGrant);
      const revoked = await callForm(
        revoke.POST!,
        { token: 'tm_unknown', client_id: registered.body.client_id },
        { headers },
      );
      expect(revoked.status).toBe(200);
      expectReadable(revoked);
    },
  );

  test(
    'behavior: /api/mcp answers a listed browser client readably: its 401 challenge, its ' + 'answer, its refusal',
    async () => {
      // Without a token: the 401 names where to authorize, and the page can read it.
      const challenged = await call(mcp.POST!, { path: '/api/mcp', headers: MCP_HEADERS, body: PING });
      expect(challenged.status).toBe(401);
      expect(challenged.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="/);
      expectReadable(challenged);
      // With its bearer token, a browser-based client on a listed origin is served.
      const { token: bearer, cookie } = await signIn();
      const answered = await call(mcp.POST!, { path: '/api/mcp', token: bearer, headers: MCP_HEADERS, body: PING });
      expect(answered).toMatchObject({ status: 200, body: { jsonrpc: '2.0', id: 1, result: {} } });
      expectReadable(answered);
      // The cookie is never a credential here: from another origin it is a cross-site write (docs/api.md#origins),
      // from the app's own it is not a bearer token (docs/api.md#mcp).
      const withCookie = await call(mcp.POST!, { path: '/api/mcp', cookie, headers: MCP_HEADERS, body: PING });
      expect(withCookie).toMatchObject({ status: 403, body: { error: 'Cross-site request refused' } });
      const ownCookie = await call(mcp.POST!, {
        path: '/api/mcp',
        cookie,
        headers: { ...MCP_HEADERS, origin: 'https://app.example.com' },
        body: PING,
      });
      expect(ownCookie.status).toBe(401);
      // An origin not listed — a rebinding page's, another site's — is refused (docs/security.md#mcp-origins),
      // readably.
      for (const origin of ['http://evil.example', 'https://evil.example']) {
        const refused = await call(mcp.POST!, {
          path: '/api/mcp',
          token: bearer,
          headers: { ...MCP_HEADERS, origin },
          body: PING,
        });
        expect(refused.status, origin).toBe(403);
        expectReadable(refused);
      }
    },
  );

  test('error: the cookie routes answer another origin with no CORS header and keep their Origin rule', async () => {
    const { token: bearer, cookie } = await signIn();
    const headers = { origin: PAGE };
    const refusedLogout = await call(logout, { method: 'POST', cookie, headers });
    expect(refusedLogout).toMatchObject({ status: 403, body: { error: 'Cross-site request refused' } });
    expect(accessControl(refusedLogout.headers)).toEqual([]);
    const refusedVerify = await call(verify, { body: { message: 'x', signature: '0x' }, headers });
    expect(refusedVerify.status).toBe(403);
    expect(accessControl(refusedVerify.headers)).toEqual([]);
    for (const credential of [{ cookie }, { token: bearer }]) {
      const read = await call(me, { ...credential, headers });
      expect(read.status).toBe(200);
      expect(accessControl(read.headers)).toEqual([]);
    }
    // No OPTIONS handler of their own: Next.js answers a preflight without any Access-Control-Allow-Origin.
    for (const [template, module] of ROUTE_TABLE) {
      if (!CORS_ROUTES.some(([cors]) => cors === template)) expect('OPTIONS' in module, template).toBe(false);
    }
  });
});
