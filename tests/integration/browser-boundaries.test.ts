// docs/api.md#conventions, #origins, #uploads: what a page on another site, a stray content type or an upload sent
// before the caller is known can make us do — nothing, and nothing is read or written first.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { POST as logout } from '@/app/api/auth/logout/route';
import { GET as me } from '@/app/api/auth/me/route';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
import { POST as verify } from '@/app/api/auth/verify/route';
import { POST as bump } from '@/app/api/missions/[id]/bump/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { call } from '../support/http';
import { BOOKKEEPING, setEnv, useTestEnvironment } from '../support/environment';
import { upload, png } from '../support/multipart';
import { createMission, missionRow, newClient } from '../support/missions';
import { newWallet, requestNonce, signIn, siweMessage } from '../support/wallets';

useTestEnvironment(BOOKKEEPING);

async function signedMessage() {
  const wallet = newWallet();
  const nonce = await requestNonce(wallet.address);
  const message = siweMessage(wallet, nonce);
  return { message, signature: await wallet.signMessage({ message }) };
}

describe('content types (docs/api.md#conventions)', () => {
  test('error: verify with a text/plain body is 415, sets no cookie and leaves the nonce unused', async () => {
    const body = await signedMessage();
    // What a cross-site <form enctype="text/plain"> or a no-cors fetch can send without a preflight.
    const refused = await call(verify, { body: JSON.stringify(body), headers: { 'content-type': 'text/plain' } });
    expect(refused).toMatchObject({ status: 415, body: { error: 'Content-Type must be application/json' } });
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect((await call(verify, { body })).status).toBe(200);
  });

  test.each([
    ['form-urlencoded', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['a JSON look-alike', 'application/jsonp'],
  ])('error: verify with %s is 415', async (_name, type) => {
    const body = await signedMessage();
    expect((await call(verify, { body: JSON.stringify(body), headers: { 'content-type': type } })).status).toBe(415);
  });

  test('error: a JSON body sent without any Content-Type is 415', async () => {
    const body = await signedMessage();
    const request = new Request('http://localhost:3000/api/auth/verify', {
      method: 'POST',
      body: new Blob([JSON.stringify(body)]),
    });
    expect(request.headers.get('content-type')).toBeNull();
    expect((await verify(request)).status).toBe(415);
  });

  test('behavior: application/json with a charset is JSON', async () => {
    const body = await signedMessage();
    expect((await call(verify, { body, headers: { 'content-type': 'Application/JSON; charset=utf-8' } })).status).toBe(
      200,
    );
  });

  test('error: an upload endpoint takes multipart or JSON, nothing else', async () => {
    const client = await newClient();
    const response = await call(createRoute, {
      token: client.token,
      body: 'title=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
  });
});

describe('origins (docs/api.md#origins)', () => {
  test('error: verify from a cross-site Origin is 403, sets no cookie and leaves the nonce unused', async () => {
    const body = await signedMessage();
    const refused = await call(verify, { body, headers: { origin: 'https://evil.example.org' } });
    expect(refused).toMatchObject({ status: 403, body: { error: 'Cross-site request refused' } });
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect((await call(verify, { body })).status).toBe(200);
  });

  test('behavior: verify without an Origin (an SDK), from an app origin, or from its own origin signs in', async () => {
    for (const headers of [{}, { origin: 'https://app.example.com' }, { origin: 'http://localhost:3000' }] as Record<
      string,
      string
    >[]) {
      expect((await call(verify, { body: await signedMessage(), headers })).status, JSON.stringify(headers)).toBe(200);
    }
  });

  test('behavior: APP_ORIGINS replaces the default list and matches exactly', async () => {
    setEnv({ APP_ORIGINS: 'https://dash.example.net' });
    try {
      expect(
        (await call(verify, { body: await signedMessage(), headers: { origin: 'https://dash.example.net' } })).status,
      ).toBe(200);
      expect(
        (await call(verify, { body: await signedMessage(), headers: { origin: 'https://app.example.com' } })).status,
      ).toBe(403);
      expect(
        (await call(verify, { body: await signedMessage(), headers: { origin: 'http://dash.example.net' } })).status,
      ).toBe(403);
    } finally {
      setEnv({ APP_ORIGINS: undefined });
    }
  });

  test(
    'error: the own origin is scheme and host: http:// to an https:// app is 403, as is ' +
      'another host of the same scheme',
    async () => {
      // The app at https://shop.example.org (Next.js takes the scheme from X-Forwarded-Proto), not among APP_ORIGINS.
      const at = (origin: string, host = 'shop.example.org') => ({
        base: 'https://shop.example.org',
        headers: { host, origin },
      });
      for (const origin of [
        'http://shop.example.org',
        'https://other.example.org',
        'https://shop.example.org.evil.example',
        'https://shop.example.org:8443',
      ]) {
        const refused = await call(verify, { body: await signedMessage(), ...at(origin) });
        expect(refused, origin).toMatchObject({ status: 403, body: { error: 'Cross-site request refused' } });
        expect(refused.headers.get('set-cookie')).toBeNull();
      }
      expect((await call(verify, { body: await signedMessage(), ...at('https://shop.example.org') })).status).toBe(200);
      expect(
        (await call(verify, { body: await signedMessage(), ...at('https://SHOP.example.org', 'shop.example.org:443') }))
          .status,
      ).toBe(200);
      // Served over plain HTTP, the http:// page is the own origin and the https:// one is not.
      const plain = (origin: string) => ({
        base: 'http://shop.example.org',
        headers: { host: 'shop.example.org', origin },
      });
      expect((await call(verify, { body: await signedMessage(), ...plain('http://shop.example.org') })).status).toBe(
        200,
      );
      expect((await call(verify, { body: await signedMessage(), ...plain('https://shop.example.org') })).status).toBe(
        403,
      );
    },
  );

  test(
    'error: logout and register-agent with a bearer token but a cross-site Origin are 403 ' + 'and change nothing',
    async () => {
      const { token } = await signIn();
      const evil = { origin: 'https://evil.example.org' };
      expect((await call(logout, { token, method: 'POST', headers: evil })).status).toBe(403);
      expect((await call(registerAgent, { token, method: 'POST', headers: evil })).status).toBe(403);
      expect(await call(me, { token })).toMatchObject({ status: 200, body: { user: { role: 'CLIENT' } } });
    },
  );
});

describe('authorize before reading an upload (docs/api.md#uploads)', () => {
  let spool = '';
  const previousTmp = process.env.TMPDIR;
  beforeEach(() => {
    // Spool directories are made under os.tmpdir(), which follows TMPDIR. Pointing it at a folder
    // that does not exist makes any attempt to spool fail loudly (the removal after a refused
    // upload would otherwise hide that it happened), and the parent must stay empty.
    spool = mkdtempSync(join(tmpdir(), 'spool-watch-'));
    process.env.TMPDIR = join(spool, 'absent');
  });
  afterEach(() => {
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
    rmSync(spool, { recursive: true, force: true });
  });

  const multipartBump = (token: string, id: string) =>
    upload(bump, {
      token,
      params: { id },
      fields: { reward: '30000000' },
      files: [{ filename: 'a.png', contentType: 'image/png', content: png() }],
    });

  test('error: bump with a multipart body is 415 and nothing reaches the spool directory', async () => {
    const client = await newClient();
    const { id } = await createMission(client);
    expect((await multipartBump(client.token, id)).status).toBe(415);
    expect(readdirSync(spool)).toEqual([]);
    expect((await missionRow(id))!.bumpCount).toBe(0);
  });

  test(
    "error: bump of a mission that does not exist is 404, of another client's mission 403, " +
      'before the body is read',
    async () => {
      const owner = await newClient();
      const stranger = await newClient();
      const { id } = await createMission(owner);
      expect((await multipartBump(stranger.token, '3f1c7a4e-5b7d-4c2a-9f3e-8d6b5a4c3b2a')).status).toBe(404);
      expect((await multipartBump(stranger.token, id)).status).toBe(403);
      expect(readdirSync(spool)).toEqual([]);
    },
  );

  test('behavior: bump still takes JSON, and no body at all', async () => {
    const client = await newClient();
    const first = await createMission(client);
    const bumped = await call(bump, { token: client.token, params: { id: first.id }, body: { reward: '30000000' } });
    expect(bumped).toMatchObject({ status: 200, body: { reward: '30000000', bumpCount: 1 } });
    const second = await createMission(client);
    expect(await call(bump, { token: client.token, method: 'POST', params: { id: second.id } })).toMatchObject({
      status: 200,
      body: { bumpCount: 1 },
    });
  });
});
