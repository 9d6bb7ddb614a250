// Client ID Metadata Documents (docs/api.md#client-id-metadata-documents): a client_id that is an https
// URL is fetched through the webhook address guard from a client's server on loopback — its
// self-signed certificate trusted only through WEBHOOK_TEST_CA, which config honours only with
// WEBHOOK_ALLOW_PRIVATE — cached in the KV as its Cache-Control says, counted per IP and for all IPs
// together when fetched.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { AuthorizationScreen } from '@/app/(site)/oauth/authorize/authorization-screen';
import { GET as grantsRoute } from '@/app/api/grants/route';
import { GET as serverMetadataRoute } from '@/app/api/oauth/metadata/authorization-server/route';
import { config, loadConfig } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { getKv } from '@/lib/kv';
import { viewAuthorization } from '@/lib/oauth/authorization-view';
import { cacheLifetime, MAX_DOCUMENT_CACHE_MS } from '@/lib/oauth/client-metadata-document';
import { issuerOf } from '@/lib/oauth/metadata';
import { call, randomIp } from '../support/http';
import { BOOKKEEPING, setEnv, useTestEnvironment } from '../support/environment';
import { type Answer, type DocumentServer, startDocumentServer } from '../support/metadata-document-server';
import {
  approve,
  authorizeParams,
  consentView,
  exchange,
  pkce,
  postConsent,
  REDIRECT_URI,
  requester,
} from '../support/oauth';
import { signIn } from '../support/wallets';

useTestEnvironment({ ...BOOKKEEPING, WEBHOOK_ALLOW_PRIVATE: '1', OAUTH_CLIENT_DOCUMENT_FETCHES_PER_MINUTE: '3' });

let server: DocumentServer;
let path = 0;
beforeAll(async () => {
  server = await startDocumentServer();
  setEnv({ WEBHOOK_TEST_CA: server.ca });
});
afterAll(() => server.close());

/** A fresh document path serving `document` (its client_id filled in), with `answer`'s status and headers. */
function publish(document: Record<string, unknown> = {}, answer: Partial<Answer> = {}) {
  const where = `/clients/${(path += 1)}.json`;
  const clientId = `${server.origin}${where}`;
  const body = JSON.stringify({
    client_id: clientId,
    client_name: 'CIMD Agent',
    redirect_uris: [REDIRECT_URI],
    ...document,
  });
  server.serve(where, { headers: { 'cache-control': 'max-age=300' }, body, ...answer });
  return { clientId, where };
}

async function open(clientId: string, ip = randomIp(), extra: Record<string, string> = {}) {
  const user = await signIn();
  const params = authorizeParams(clientId, pkce().challenge, extra);
  return viewAuthorization(await getDb(), getKv(), issuerOf(config()), params, user.user.id, new Date(), requester(ip));
}

test('behavior: the authorization server metadata advertises documents and the none auth method', async () => {
  const metadata = (await call(serverMetadataRoute)).body;
  expect(metadata.client_id_metadata_document_supported).toBe(true);
  expect(metadata.token_endpoint_auth_methods_supported).toContain('none');
});

describe('a client identified by its metadata document', () => {
  test(
    'behavior: the consent page shows the document host as verified; the whole flow works ' +
      'with the URL as client_id',
    async () => {
      const { clientId } = publish();
      const view = await open(clientId);
      expect(view.kind).toBe('consent');
      const html = renderToStaticMarkup(AuthorizationScreen({ view, here: '/oauth/authorize', hidden: {} }));
      expect(html).toContain(`data-testid="verified-domain">${new URL(server.origin).host}<`);
      expect(html).not.toContain('Unverified app');
      expect(html).toContain('data-testid="client-name">CIMD Agent<');

      const user = await signIn();
      const { verifier, challenge } = pkce();
      const location = await approve(user, authorizeParams(clientId, challenge));
      const code = location.searchParams.get('code')!;
      const tokens = await exchange({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
      });
      expect(tokens.status).toBe(200);
      const [grant] = (await call(grantsRoute, { token: user.token })).body.items;
      expect(grant).toMatchObject({ clientId, name: 'CIMD Agent' });
      const refreshed = await exchange({
        grant_type: 'refresh_token',
        refresh_token: tokens.body.refresh_token,
        client_id: clientId,
      });
      expect(refreshed.status).toBe(200);
      // Its refresh token is bound to its own client_id: another document URL presenting it gets nothing.
      const other = await exchange({
        grant_type: 'refresh_token',
        refresh_token: refreshed.body.refresh_token,
        client_id: `${server.origin}/clients/other.json`,
      });
      expect(other.status).toBe(400);
    },
  );

  test(
    'behavior: a document whose redirect URI is on another host is "described by a document at" its ' +
      'host, never a verified domain',
    async () => {
      const elsewhere = 'https://agent.example/cb';
      const { clientId } = publish({ redirect_uris: [elsewhere] });
      const view = await open(clientId, randomIp(), { redirect_uri: elsewhere });
      expect(view.kind).toBe('consent');
      const html = renderToStaticMarkup(AuthorizationScreen({ view, here: '/oauth/authorize', hidden: {} }));
      expect(html).toContain(
        `Described by a document at <strong data-testid="document-host">${new URL(server.origin).host}<`,
      );
      expect(html).not.toContain('verified-domain');
      expect(html).not.toContain('Verified domain');
    },
  );

  test('error: the consent POST is 409 when the name the person saw is no longer the one in the document', async () => {
    const { clientId, where } = publish({}, { headers: { 'cache-control': 'no-store' } });
    const user = await signIn();
    const params = authorizeParams(clientId, pkce().challenge);
    const view = await consentView(user, params);
    expect(view.request.client.name).toBe('CIMD Agent');
    server.serve(where, {
      headers: { 'cache-control': 'no-store' },
      body: JSON.stringify({ client_id: clientId, client_name: 'taskmarket', redirect_uris: [REDIRECT_URI] }),
    });
    const answer = await postConsent(user, {
      ...params,
      scope: view.offered.join(' '),
      form_token: view.formToken,
      decision: 'approve',
    });
    expect(answer).toMatchObject({ status: 409, body: { error: expect.stringMatching(/name changed/) } });
    expect(answer.headers.get('location')).toBeNull();
    expect((await call(grantsRoute, { token: user.token })).body.items).toEqual([]);
  });

  const REFUSED: [string, Record<string, unknown>, Partial<Answer>, RegExp][] = [
    ['names another client_id', { client_id: 'https://elsewhere.example/client.json' }, {}, /another client_id/],
    ['lists no such redirect URI', { redirect_uris: ['https://agent.example/cb'] }, {}, /redirect_uri does not match/],
    ['asks for a client secret method', { token_endpoint_auth_method: 'client_secret_basic' }, {}, /must be none/],
    ['carries a client secret', { client_secret: 'shh' }, {}, /client_secret/],
    ['is larger than 5 KB', { padding: 'x'.repeat(5 * 1024) }, {}, /larger than 5120 bytes/],
    ['is not JSON', {}, { headers: { 'content-type': 'text/html' } }, /not application\/json/],
    ['answers a redirect', {}, { status: 302, headers: { location: 'https://127.0.0.1/evil.json' } }, /HTTP 302/],
    ['answers 404', {}, { status: 404 }, /HTTP 404/],
  ];
  test.each(REFUSED)('error: a document that %s is refused on our page', async (_, document, answer, message) => {
    const { clientId } = publish(document, answer);
    const view = await open(clientId);
    expect(view).toMatchObject({ kind: 'refused', message: expect.stringMatching(message) });
  });

  test(
    'error: a malformed document URL is not a client (no fetch), and a dynamic client is ' + 'still unverified',
    async () => {
      for (const clientId of [`${server.origin}/`, `${server.origin}/a/../b.json`, `${server.origin}/c.json#x`]) {
        expect((await open(clientId)).kind).toBe('refused');
      }
    },
  );
});

describe('what a stranger can make us fetch', () => {
  test(
    'behavior: a document with max-age is fetched once and served from the KV after; ' +
      'no-store is fetched each time',
    async () => {
      const cached = publish();
      for (let i = 0; i < 3; i += 1) expect((await open(cached.clientId)).kind).toBe('consent');
      expect(server.hits(cached.where)).toBe(1);
      const uncached = publish({}, { headers: { 'cache-control': 'no-store' } });
      const ip = randomIp();
      for (let i = 0; i < 2; i += 1) expect((await open(uncached.clientId, ip)).kind).toBe('consent');
      expect(server.hits(uncached.where)).toBe(2);
    },
  );

  test(
    'error: past OAUTH_CLIENT_DOCUMENT_FETCHES_PER_MINUTE fetches an IP is refused without ' +
      'a fetch; another IP is not',
    async () => {
      const { clientId, where } = publish({}, { headers: { 'cache-control': 'no-cache' } });
      const ip = randomIp();
      for (let i = 0; i < 3; i += 1) expect((await open(clientId, ip)).kind).toBe('consent');
      expect(await open(clientId, ip)).toMatchObject({ kind: 'refused', message: expect.stringMatching(/Too many/) });
      expect(server.hits(where)).toBe(3);
      expect((await open(clientId)).kind).toBe('consent');
    },
  );

  test(
    'error: past OAUTH_CLIENT_DOCUMENT_FETCHES_GLOBAL_PER_HOUR fetches from all IPs, a ' +
      'fresh IP is refused too; cached reads go on',
    async () => {
      // A fresh KV (an empty window) and a ceiling of 5 fetches an hour for everyone together.
      setEnv({ KV_PREFIX: `test:${randomUUID()}:`, OAUTH_CLIENT_DOCUMENT_FETCHES_GLOBAL_PER_HOUR: '5' });
      try {
        const cached = publish();
        expect((await open(cached.clientId)).kind).toBe('consent');
        const { clientId, where } = publish({}, { headers: { 'cache-control': 'no-cache' } });
        const ip = randomIp();
        for (let i = 0; i < 3; i += 1) expect((await open(clientId, ip)).kind).toBe('consent');
        // Refused by its own IP's limit first, so it spends nothing of the shared budget: one fetch is left.
        expect(await open(clientId, ip)).toMatchObject({
          kind: 'refused',
          message: expect.stringMatching(/from your address/),
        });
        expect((await open(clientId)).kind).toBe('consent');
        for (let i = 0; i < 2; i += 1) {
          expect(await open(clientId)).toMatchObject({
            kind: 'refused',
            message: expect.stringMatching(/from everywhere this hour/),
          });
        }
        expect(server.hits(where)).toBe(4);
        expect((await open(cached.clientId)).kind).toBe('consent');
        expect(server.hits(cached.where)).toBe(1);
      } finally {
        setEnv({ KV_PREFIX: `test:${randomUUID()}:`, OAUTH_CLIENT_DOCUMENT_FETCHES_GLOBAL_PER_HOUR: undefined });
      }
    },
  );

  test(
    'error: without WEBHOOK_ALLOW_PRIVATE the guard refuses the loopback address, and the ' + 'test CA is not trusted',
    async () => {
      const { clientId, where } = publish();
      expect(loadConfig({ ...process.env, WEBHOOK_ALLOW_PRIVATE: undefined }).webhooks.testCa).toBeUndefined();
      setEnv({ WEBHOOK_ALLOW_PRIVATE: undefined });
      try {
        expect(await open(clientId)).toMatchObject({
          kind: 'refused',
          message: expect.stringMatching(/loopback, private or link-local/),
        });
      } finally {
        setEnv({ WEBHOOK_ALLOW_PRIVATE: '1' });
      }
      setEnv({ WEBHOOK_TEST_CA: undefined });
      try {
        expect(await open(clientId)).toMatchObject({
          kind: 'refused',
          message: expect.stringMatching(/could not be fetched/),
        });
      } finally {
        setEnv({ WEBHOOK_TEST_CA: server.ca });
      }
      expect(server.hits(where)).toBe(0);
    },
  );

  test('behavior: a URL the address guard refuses on its face is refused before it costs any budget', async () => {
    const { clientId, where } = publish({}, { headers: { 'cache-control': 'no-cache' } });
    const ip = randomIp();
    setEnv({ WEBHOOK_ALLOW_PRIVATE: undefined });
    try {
      // Well past the IP's three fetches a minute: each refused by the guard, none by the limit.
      for (let i = 0; i < 6; i += 1) {
        expect(await open(clientId, ip)).toMatchObject({
          kind: 'refused',
          message: expect.stringMatching(/loopback, private or link-local/),
        });
      }
    } finally {
      setEnv({ WEBHOOK_ALLOW_PRIVATE: '1' });
    }
    for (let i = 0; i < 3; i += 1) expect((await open(clientId, ip)).kind).toBe('consent');
    expect(server.hits(where)).toBe(3);
  });

  test('error: addresses of one IPv6 /48 share one limit of fetches; another /48 has its own', async () => {
    const { clientId } = publish({}, { headers: { 'cache-control': 'no-cache' } });
    const group = () => Math.floor(Math.random() * 0xffff).toString(16);
    const site = `2a01:${group()}:${group()}`;
    for (const subnet of ['1', '2', '3']) expect((await open(clientId, `${site}:${subnet}::5`)).kind).toBe('consent');
    expect(await open(clientId, `${site}:4::5`)).toMatchObject({
      kind: 'refused',
      message: expect.stringMatching(/from your address/),
    });
    expect((await open(clientId, `2a01:${group()}:${group()}:1::5`)).kind).toBe('consent');
  });

  test('behavior: sources flooding spend only their hourly shares; a client from elsewhere connects', async () => {
    // Fresh windows; each source may fetch 4 an hour, everyone together 10 (ten a minute each, so the
    // minute's limit is not what stops them).
    setEnv({
      KV_PREFIX: `test:${randomUUID()}:`,
      OAUTH_CLIENT_DOCUMENT_FETCHES_PER_MINUTE: '10',
      OAUTH_CLIENT_DOCUMENT_FETCHES_PER_SOURCE_PER_HOUR: '4',
      OAUTH_CLIENT_DOCUMENT_FETCHES_GLOBAL_PER_HOUR: '10',
    });
    try {
      const junk = publish({}, { headers: { 'cache-control': 'no-cache' } });
      const group = () => Math.floor(Math.random() * 0xffff).toString(16);
      for (const site of [`2a01:${group()}:${group()}`, `2a02:${group()}:${group()}`]) {
        for (let i = 0; i < 4; i += 1) expect((await open(junk.clientId, `${site}:${i}::1`)).kind).toBe('consent');
        for (let i = 0; i < 3; i += 1) {
          expect(await open(junk.clientId, `${site}:9::${i}`)).toMatchObject({
            kind: 'refused',
            message: expect.stringMatching(/from your address/),
          });
        }
      }
      expect(server.hits(junk.where)).toBe(8);
      const honest = publish();
      expect((await open(honest.clientId, `2a03:${group()}:${group()}::1`)).kind).toBe('consent');
    } finally {
      setEnv({
        KV_PREFIX: `test:${randomUUID()}:`,
        OAUTH_CLIENT_DOCUMENT_FETCHES_PER_MINUTE: '3',
        OAUTH_CLIENT_DOCUMENT_FETCHES_PER_SOURCE_PER_HOUR: undefined,
        OAUTH_CLIENT_DOCUMENT_FETCHES_GLOBAL_PER_HOUR: undefined,
      });
    }
  });

  test('behavior: the cache keeps a document as long as s-maxage or max-age less Age says, never past 24 h', () => {
    expect(cacheLifetime('public, max-age=600', undefined)).toBe(600_000);
    expect(cacheLifetime('max-age=600, s-maxage=60', undefined)).toBe(60_000);
    expect(cacheLifetime('max-age=600', '100')).toBe(500_000);
    expect(cacheLifetime('max-age=31536000', undefined)).toBe(MAX_DOCUMENT_CACHE_MS);
    for (const header of [undefined, 'no-store', 'max-age=600, no-cache', 'private, max-age=600', 'max-age=abc']) {
      expect(cacheLifetime(header, undefined)).toBe(0);
    }
  });
});
