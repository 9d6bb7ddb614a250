// A preview deployment as Vercel runs it (docs/api.md#client-ip, #vercel): `next start` with VERCEL=1 and no
// server.ts, PostgreSQL, and the KV through @vercel/kv (Upstash's REST protocol, here the stand-in
// over this machine's Redis). Sign-in works on the deployment's own host and on no other
// vercel.app host; per-IP limits count by the platform's x-real-ip and nothing a client sends.
// Spans go by OTLP to a real receiver, flushed once each answer is out (docs/api.md#observability).
import { randomBytes, randomUUID } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Hex } from 'viem';
import { createSiweMessage } from 'viem/siwe';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver';
import { callTool, connectMcp } from '../support/mcp-client';
import { startUpstashBridge } from '../support/upstash-bridge';
import { expectDocumentedShape, newAccount, request } from '../support/faults/client';
import { CHAIN_ID, type Instance, loggedFailures, startInstance } from '../support/faults/instances';
import { freshMachineDatabase, until } from '../support/faults/services';

const PREVIEW = 'taskmarket-git-feature-acme.vercel.app';
const BRANCH = 'taskmarket-git-feature.vercel.app';
const MACHINE_REDIS = 'redis://127.0.0.1:6379';

let bridge: Awaited<ReturnType<typeof startUpstashBridge>>;
let database: Awaited<ReturnType<typeof freshMachineDatabase>>;
let instance: Instance;
let receiver: OtlpReceiver;

function vercelEnv(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = {
    VERCEL: '1',
    VERCEL_ENV: 'preview',
    VERCEL_URL: PREVIEW,
    VERCEL_BRANCH_URL: BRANCH,
    SIWE_DOMAIN: 'app.example.com',
    BASE_CHAIN_ID: String(CHAIN_ID),
    DATABASE_URL: database.url,
    KV_REST_API_URL: bridge.url,
    KV_REST_API_TOKEN: bridge.token,
    KV_PREFIX: `vercel:${randomUUID()}:`,
    JWT_SECRET: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    NONCE_RATE_LIMIT_PER_MINUTE: '3',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    ...overrides,
  };
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** `npm run db:migrate` as a deployment's build step runs it, against this file's database. */
function migrate(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'db:migrate'], {
      // The build step sees the deployment's environment, as Vercel gives it.
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', ...vercelEnv() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

let migrations: { code: number | null; output: string }[] = [];

beforeAll(async () => {
  [bridge, database, receiver] = await Promise.all([
    startUpstashBridge(MACHINE_REDIS),
    freshMachineDatabase(),
    startOtlpReceiver(),
  ]);
  // Two build steps and an instance starting at once on an empty database: the advisory lock
  // lets one migrate while the others wait and find nothing left to do.
  [migrations, instance] = await Promise.all([
    Promise.all([migrate(), migrate()]),
    startInstance(vercelEnv(), 'next start'),
  ]);
});

test('behavior: npm run db:migrate run twice while an instance starts on an empty database: all succeed', () => {
  expect(
    migrations.map((m) => m.code),
    migrations.map((m) => m.output).join('\n'),
  ).toEqual([0, 0]);
  expect(migrations[0]!.output).toContain('the database is at the newest migration');
});

afterAll(async () => {
  if (instance) expect(loggedFailures(instance)).toEqual([]);
  await instance?.stop();
  await bridge?.close();
  await database?.drop();
  await receiver?.close();
});

/** A nonce and a signed SIWE message for `domain`, sent from `ip` (the platform's x-real-ip). */
async function signInAt(domain: string, ip: string) {
  const account = newAccount();
  const headers = { 'x-real-ip': ip, origin: `https://${domain}` };
  const nonce = await request(instance, '/api/auth/nonce', { body: { address: account.address }, headers });
  expect(nonce.status).toBe(200);
  const message = createSiweMessage({
    domain,
    address: account.address,
    statement: 'Sign in to taskmarket with your wallet.',
    uri: `https://${domain}`,
    version: '1',
    chainId: CHAIN_ID,
    nonce: nonce.body.nonce,
    issuedAt: new Date(),
  });
  const signature: Hex = await account.signMessage({ message });
  return request(instance, '/api/auth/verify', { body: { message, signature }, headers });
}

// A different address each call: one test spends an address's limit, and a later one drawn at random
// could land on it.
let nextIp = Math.floor(Math.random() * 250);
const ip = () => `203.0.113.${(nextIp++ % 250) + 1}`;

describe('a Vercel preview deployment', () => {
  test('default: sign-in on the preview host and on its branch host succeeds, with the session cookie', async () => {
    for (const host of [PREVIEW, BRANCH]) {
      const reply = await signInAt(host, ip());
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(reply.headers.get('set-cookie')).toMatch(/^__Host-taskmarket_session=/);
    }
  });

  test('error: sign-in on another vercel.app host is refused', async () => {
    const reply = await signInAt('taskmarket-git-evil-mallory.vercel.app', ip());
    expectDocumentedShape(reply);
    expect(reply.status).toBe(403); // its Origin is no app origin of this deployment
    const account = newAccount();
    const nonce = await request(instance, '/api/auth/nonce', {
      body: { address: account.address },
      headers: { 'x-real-ip': ip() },
    });
    const message = createSiweMessage({
      domain: 'taskmarket-git-evil-mallory.vercel.app',
      address: account.address,
      uri: 'https://taskmarket-git-evil-mallory.vercel.app',
      version: '1',
      chainId: CHAIN_ID,
      nonce: nonce.body.nonce,
      issuedAt: new Date(),
    });
    // Without an Origin (an SDK), the SIWE domain rule refuses it on its own.
    const bySdk = await request(instance, '/api/auth/verify', {
      body: { message, signature: await account.signMessage({ message }) },
      headers: { 'x-real-ip': ip() },
    });
    expect(bySdk).toMatchObject({ status: 401, body: { error: 'Domain not allowed' } });
  });

  test('behavior: per-IP limits count by x-real-ip; our socket header and X-Forwarded-For change nothing', async () => {
    const address = newAccount().address;
    const from = (realIp: string, extra: Record<string, string> = {}) =>
      request(instance, '/api/auth/nonce', { body: { address }, headers: { 'x-real-ip': realIp, ...extra } });
    const a = ip();
    const statuses = [];
    for (let i = 0; i < 4; i += 1) {
      // A forged socket header and X-Forwarded-For that differ every time: ignored on Vercel.
      statuses.push(
        (await from(a, { [SOCKET_ADDRESS_HEADER]: `10.0.0.${i}`, 'x-forwarded-for': `198.51.100.${i}` })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await from(`${a.slice(0, -1)}${(Number(a.at(-1)) + 1) % 10}`)).status).toBe(200);
  });

  test('behavior: IPv6 clients of one /64 share a bucket here too', async () => {
    const net = `2001:db8:${randomBytes(2).toString('hex')}:1`;
    const statuses = [];
    for (const host of ['::1', '::2', 'ffff::3', '::4']) {
      statuses.push(
        (
          await request(instance, '/api/auth/nonce', {
            body: { address: newAccount().address },
            headers: { 'x-real-ip': `${net}:${host}`.replace(':::', '::') },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('remote MCP on the preview (docs/api.md#mcp)', () => {
  test('behavior: the MCP SDK client with a personal access token calls tools on next start', async () => {
    const headers = { 'x-real-ip': ip() };
    const signedIn = await signInAt(PREVIEW, headers['x-real-ip']);
    expect(signedIn.status).toBe(200);
    const made = await request(instance, '/api/tokens', {
      token: signedIn.body.token,
      headers,
      body: { name: 'preview agent', scopes: ['missions:read'], expiresIn: 3600 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const client = await connectMcp(`${instance.url}/api/mcp`, { token: made.body.token });
    expect(await callTool(client, 'whoami')).toMatchObject({
      user: { walletAddress: signedIn.body.user.walletAddress },
    });
    expect(await callTool(client, 'find_missions', { limit: 5 })).toEqual({ items: [], nextCursor: null });
    await client.close();
  });
});

describe('start-up on Vercel', () => {
  test.each([
    ['DATABASE_URL', { DATABASE_URL: undefined }, 'DATABASE_URL is required on Vercel'],
    [
      'a shared KV',
      { KV_REST_API_URL: undefined, KV_REST_API_TOKEN: undefined, SINGLE_INSTANCE: '1' },
      'REDIS_URL or KV_REST_API_URL + KV_REST_API_TOKEN is required on Vercel',
    ],
  ])('error: without %s next start stops with a message naming it', (_name, change, message) => {
    const result = spawnSync(join('node_modules', '.bin', 'next'), ['start', '-p', '0'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', ...vercelEnv(change) },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(`${result.stdout}${result.stderr}`).toContain(message);
  });
});

describe('tracing on Vercel', () => {
  test(
    "behavior: a sign-in's spans arrive within 3 s of the answer (flushed in after()), a " +
      'server span with its children, an incoming traceparent continued, no address, token, ' +
      'signature or message',
    async () => {
      const account = newAccount();
      // An address of its own: the other tests' per-IP nonce limit (3 a minute here) stays out of the way.
      const headers = { 'x-real-ip': '192.0.2.77' };
      const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
      const nonce = await request(instance, '/api/auth/nonce', { body: { address: account.address }, headers });
      expect(nonce.status).toBe(200);
      const message = createSiweMessage({
        domain: PREVIEW,
        address: account.address,
        uri: `https://${PREVIEW}`,
        version: '1',
        chainId: CHAIN_ID,
        nonce: nonce.body.nonce,
        issuedAt: new Date(),
      });
      const signature = await account.signMessage({ message });
      const reply = await request(instance, '/api/auth/verify', {
        body: { message, signature },
        headers: { ...headers, traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` },
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      // Other tests signed in too: this request's span is the one in the caller's trace.
      const ours = () =>
        receiver.spans.find((span) => span.name === 'POST /api/auth/verify' && span.traceId === callerTrace);
      // The batch would wait 5 s: sooner means the request flushed its own spans.
      await until('the verify span', () => Boolean(ours()), 3_000);
      const span = ours()!;
      // Next.js's own spans are not recorded (lib/observability/start-tracing.ts): ours is the server span.
      expect(span).toMatchObject({
        kind: 2,
        service: 'taskmarket',
        traceId: callerTrace,
        parentSpanId: '00f067aa0ba902b7',
      });
      expect(span.attributes).toMatchObject({ 'http.route': '/api/auth/verify', 'http.response.status_code': 200 });
      expect(receiver.spans.filter((s) => s.attributes['next.span_type'] !== undefined)).toEqual([]);
      expect(receiver.spans.some((s) => s.parentSpanId === span.spanId && /^kv /.test(s.name))).toBe(true);
      expect(receiver.spans.some((s) => s.parentSpanId === span.spanId && /^(SELECT|INSERT) /.test(s.name))).toBe(true);
      const raw = Buffer.concat(receiver.requests.map((r) => r.body))
        .toString('latin1')
        .toLowerCase();
      for (const secret of [
        account.address.slice(2),
        reply.body.token as string,
        signature.slice(2),
        nonce.body.nonce as string,
        message.split('\n')[0]!,
      ]) {
        expect(raw).not.toContain(secret.toLowerCase());
      }
    },
  );
});
