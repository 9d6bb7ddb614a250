// docs/api.md#observability: request ids on every answer and in the request's log lines; GET /api/metrics in the
// Prometheus text format behind METRICS_TOKEN, checked by a strict parser here and by Prometheus's own
// promtool in CI (tests/support/exposition.ts).
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { GET as catchAll } from '@/app/api/[...path]/route';
import { GET as agentProfile } from '@/app/api/agents/[address]/route';
import { GET as me } from '@/app/api/auth/me/route';
import { POST as nonce, GET as nonceGet } from '@/app/api/auth/nonce/route';
import { GET as healthLive } from '@/app/api/health/live/route';
import { GET as metricsGet } from '@/app/api/metrics/route';
import { GET as missionGet } from '@/app/api/missions/[id]/route';
import { ROUTE_TEMPLATES } from '@/lib/http/route-templates';
import nextConfig from '@/next.config';
import { settlements } from '@/lib/db/schema';
import { call } from '../support/http';
import { JUNK_ROUTES, junkRequest } from '../support/junk-paths';
import { setEnv, useTestEnvironment } from '../support/environment';
import { db } from '../support/missions';
import { keepForPromtool, parseExposition } from '../support/exposition';
import { newWallet, signIn } from '../support/wallets';

const METRICS_TOKEN = `metrics-${'0123456789abcdef'.repeat(2)}`;
useTestEnvironment({ METRICS_TOKEN });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const scrape = () => call(metricsGet, { path: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });

afterEach(() => vi.restoreAllMocks());

describe('request ids', () => {
  test('behavior: every answer carries x-request-id; a valid incoming one is kept', async () => {
    const kept = 'trace-01.AB_c';
    const answers = [
      await call(nonce, {
        path: '/api/auth/nonce',
        body: { address: newWallet().address },
        headers: { 'x-request-id': kept },
      }),
      await call(me, { path: '/api/auth/me', headers: { 'x-request-id': kept } }),
      await call(catchAll, {
        path: '/api/nowhere',
        params: { path: ['nowhere'] } as never,
        headers: { 'x-request-id': kept },
      }),
      await call(nonceGet, { path: '/api/auth/nonce', headers: { 'x-request-id': kept } }),
      await call(healthLive, { path: '/api/health/live', headers: { 'x-request-id': kept } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 404, 405, 200]);
    for (const answer of answers) expect(answer.headers.get('x-request-id')).toBe(kept);
    // The error shape is unchanged: the id is in the header only.
    expect(answers[1]!.body).toEqual({ error: 'Authentication required' });
    expect(
      (await call(me, { path: '/api/auth/me', headers: { 'x-request-id': 'x'.repeat(128) } })).headers.get(
        'x-request-id',
      ),
    ).toBe('x'.repeat(128));
  });

  test('error: an incoming id that is too long, empty or has other characters is replaced by a new one', async () => {
    const seen = new Set<string>();
    for (const bad of ['x'.repeat(129), '', 'has space', 'a/b', 'ünï', 'a\tb', '<script>', 'a,b']) {
      const answer = await call(me, { path: '/api/auth/me', headers: { 'x-request-id': bad } });
      const id = answer.headers.get('x-request-id')!;
      expect(id, JSON.stringify(bad)).toMatch(UUID);
      seen.add(id);
    }
    const none = (await call(me, { path: '/api/auth/me' })).headers.get('x-request-id')!;
    expect(none).toMatch(UUID);
    seen.add(none);
    expect(seen.size).toBe(9);
  });

  test("behavior: a request's log lines name its id, and lines of other requests do not", async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
    const setting = process.env.KV_REST_API_URL ? 'KV_REST_API_URL' : 'REDIS_URL';
    const previous = process.env[setting];
    setEnv({ [setting]: setting === 'REDIS_URL' ? 'redis://127.0.0.1:1' : 'http://127.0.0.1:9' });
    try {
      const down = await call(nonce, {
        path: '/api/auth/nonce',
        body: { address: newWallet().address },
        headers: { 'x-request-id': 'outage-1' },
      });
      expect(down.status).toBe(503);
      expect(down.headers.get('x-request-id')).toBe('outage-1');
    } finally {
      setEnv({ [setting]: previous });
    }
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const unavailable = logged.find((line) => line.event === 'dependency.unavailable');
    expect(unavailable).toMatchObject({ requestId: 'outage-1', dependency: 'kv' });
    lines.length = 0;
    const { log } = await import('@/lib/log');
    log.info('outside.any_request');
    expect(JSON.parse(lines[0]!)).not.toHaveProperty('requestId');
  });
});

describe('GET /api/metrics', () => {
  test('error: without METRICS_TOKEN, or with a wrong one, no metrics', async () => {
    expect((await call(metricsGet, { path: '/api/metrics' })).status).toBe(401);
    expect(
      (await call(metricsGet, { path: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}x` } })).status,
    ).toBe(401);
    setEnv({ METRICS_TOKEN: undefined });
    try {
      expect(
        (await call(metricsGet, { path: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } }))
          .status,
      ).toBe(404);
    } finally {
      setEnv({ METRICS_TOKEN });
    }
  });

  test(
    'behavior: requests by route template and status, latencies, dependency errors and ' +
      'settlement gauges, in the text format',
    async () => {
      const { user } = await signIn();
      await call(nonce, { path: '/api/auth/nonce', body: { address: newWallet().address } });
      const address = newWallet().address.toLowerCase();
      const missionId = randomUUID();
      await call(agentProfile, { path: `/api/agents/${address}`, params: { address } });
      await call(missionGet, { path: `/api/missions/${missionId}`, params: { id: missionId } });
      // A PENDING settlement two minutes old: the oldest pending age is at least that.
      const handle = await db();
      const [row] = await handle
        .insert(settlements)
        .values({
          kind: 'CLAIM',
          userId: user.id,
          beneficiary: address,
          amount: '1',
          createdAt: new Date(Date.now() - 120_000),
        })
        .returning({ id: settlements.id });
      try {
        const answer = await scrape();
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
        const text = answer.body as string;
        const metrics = await parseExposition(text);
        keepForPromtool(text);
        expect(metrics.taskmarket_http_requests_total?.type).toBe('counter');
        expect(metrics.taskmarket_http_request_duration_seconds?.type).toBe('histogram');
        expect(metrics.taskmarket_settlements?.type).toBe('gauge');
        expect(text).toMatch(
          /^taskmarket_http_requests_total\{method="POST",route="\/api\/auth\/nonce",status="200"\} [1-9]/m,
        );
        expect(text).toMatch(
          /^taskmarket_http_requests_total\{method="GET",route="\/api\/missions\/\[id\]",status="404"\} [1-9]/m,
        );
        expect(text).toMatch(
          /^taskmarket_http_request_duration_seconds_bucket\{le="0\.1",method="POST",route="\/api\/auth\/nonce"\} /m,
        );
        expect(text).toMatch(
          /^taskmarket_http_requests_total\{method="GET",route="\/api\/agents\/\[address\]",status="\d+"\} [1-9]/m,
        );
        for (const status of ['PENDING', 'MINED', 'FAILED', 'SUPERSEDED'])
          expect(text).toMatch(new RegExp(`^taskmarket_settlements\\{status="${status}"\\} \\d+`, 'm'));
        for (const status of ['PENDING', 'DELIVERED', 'FAILED'])
          expect(text).toMatch(new RegExp(`^taskmarket_webhook_deliveries\\{status="${status}"\\} \\d+`, 'm'));
        expect(text).toMatch(/^taskmarket_webhook_events_waiting \d+$/m);
        const age = Number(/^taskmarket_oldest_pending_settlement_age_seconds (\S+)$/m.exec(text)?.[1]);
        expect(age).toBeGreaterThanOrEqual(120);
        expect(text).toMatch(/^taskmarket_dependency_errors_total\{dependency="kv"\} [1-9]/m);
        // Route templates, never the ids or addresses of the requests.
        expect(text).not.toContain(missionId);
        expect(text.toLowerCase()).not.toContain(address.slice(2));
      } finally {
        await handle.delete(settlements).where(eq(settlements.id, row!.id));
      }
    },
  );
});

describe('observed handlers', () => {
  test('behavior: a handler answering Response.redirect (immutable headers) still gets its x-request-id', async () => {
    const { observed } = await import('@/lib/http/observed');
    const handler = observed(async () => Response.redirect('https://app.example.com/next', 302));
    const answer = await handler(
      new Request('http://localhost:3000/api/somewhere', { headers: { 'x-request-id': 'redirect-1' } }),
    );
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('https://app.example.com/next');
    expect(answer.headers.get('x-request-id')).toBe('redirect-1');
  });

  test(
    'behavior: a path is labelled by the template of the route it reaches, ranked as the ' + 'App Router does',
    async () => {
      const { routeLabel } = await import('@/lib/http/route-label');
      expect(routeLabel('/api/missions/3f1c7a4e-5b7d-4c2a-9f3e-8d6b5a4c3b2a/files/ab')).toBe(
        '/api/missions/[id]/files/[fileId]',
      );
      expect(routeLabel('/api/agents/0xAbC%20')).toBe('/api/agents/[address]');
      expect(routeLabel('/api/agents/leaderboard')).toBe('/api/agents/leaderboard');
      expect(routeLabel('/api/agents/me/passport')).toBe('/api/agents/me/passport');
      expect(routeLabel('/api/a/b/c')).toBe('/api/[...path]');
      expect(routeLabel('/api/health')).toBe('/api/health');
      expect(routeLabel('/api/he%61lth')).toBe('/api/health');
      expect(routeLabel('/api/missions/a%2Fb/accept')).toBe('/api/missions/[id]/accept');
      expect(routeLabel('/.well-known/oauth-authorization-server')).toBe('/.well-known/oauth-authorization-server');
      expect(routeLabel('/.well-known/oauth-protected-resource/api/mcp')).toBe(
        '/.well-known/oauth-protected-resource/[...path]',
      );
      for (const path of ['/', '', '/nowhere', '/.well-known/other/x', '/api%2Fhealth', '/%E0%A4%A'])
        expect(routeLabel(path), path).toBe('other');
    },
  );

  test('behavior: the labels are exactly the route files, the catch-all and next.config.ts rewrites', async () => {
    const app = join(process.cwd(), 'app');
    const files = (readdirSync(app, { recursive: true }) as string[]).filter((f) => /(^|\/)route\.tsx?$/.test(f));
    const rewrites = (await nextConfig.rewrites!()) as { source: string }[];
    const expected = [
      ...files.map((f) => `/${f.replace(/\/?route\.tsx?$/, '')}`),
      ...rewrites.map((r) => r.source.replace(/:(\w+)\*$/, '[...$1]')),
    ];
    expect([...ROUTE_TEMPLATES].sort()).toEqual([...new Set(expected)].sort());
  });
});

describe('labels a stranger cannot grow (docs/api.md#observability)', () => {
  /** The series a scrape shows, by name and labels; the scrapes' own left out (the first may precede them). */
  const series = (text: string) =>
    text
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#') && !line.includes('route="/api/metrics"'))
      .map((line) => line.replace(/ \S+$/, ''));
  test('error: 10,000 requests to distinct junk paths add no series to /api/metrics', async () => {
    for (let i = 0; i < 3; i += 1) await junkRequest(i);
    const before = series((await scrape()).body as string);
    const statuses = new Set<number>();
    for (let i = 0; i < 10_000; i += 1) statuses.add((await junkRequest(i)).status);
    expect([...statuses].sort()).toEqual([200, 404]);
    const text = (await scrape()).body as string;
    expect(series(text)).toEqual(before);
    for (const route of JUNK_ROUTES) expect(text).toContain(`route="${route}"`);
    expect(text).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}/);
  });
});
