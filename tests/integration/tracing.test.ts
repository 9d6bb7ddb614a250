// docs/api.md#observability: with OTEL_EXPORTER_OTLP_ENDPOINT set, spans reach a real OTLP/HTTP receiver — a
// request span per call (route template, status, caller role) with its KV calls, SQL statements
// and RPC requests as children, the sweep's webhook deliveries and settlements under its own — and
// no address, token, signature or message is in any of them.
import { eq } from 'drizzle-orm';
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { POST as addWebhook } from '@/app/api/webhooks/route';
import { getDb } from '@/lib/db/client';
import { settlements } from '@/lib/db/schema';
import { POST as nonce } from '@/app/api/auth/nonce/route';
import { POST as verify } from '@/app/api/auth/verify/route';
import { GET as me } from '@/app/api/auth/me/route';
import { GET as health } from '@/app/api/health/route';
import { GET as agentProfile } from '@/app/api/agents/[address]/route';
import { config } from '@/lib/config';
import { type Tracing, startTracing } from '@/lib/observability/start-tracing';
import { inSpan } from '@/lib/observability/tracing';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { isolatedDatabase } from '../support/isolated-database';
import { createMission, newClient } from '../support/missions';
import { startWebhookReceiver } from '../support/webhook-receiver';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver';
import { JUNK_ROUTES, junkRequest } from '../support/junk-paths';
import { newWallet, siweMessage } from '../support/wallets';

// Bookkeeping: the sweep's settlement attempt ends at "chain not configured", sending nothing.
useTestEnvironment({ ...isolatedDatabase(), ...BOOKKEEPING, WEBHOOK_ALLOW_PRIVATE: '1' });

const COLLECTOR_TOKEN = 'collector-secret-0123456789';
let receiver: OtlpReceiver;
let tracing: Tracing | undefined;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = startTracing({
    ...config().otel,
    endpoint: receiver.url,
    headers: { authorization: `Bearer ${COLLECTOR_TOKEN}` },
    serviceName: 'taskmarket-test',
  });
});

afterAll(async () => {
  await tracing?.stop();
  await receiver.close();
});

/** Spans of one trace, once the batch has been sent. */
async function exported(): Promise<void> {
  await tracing!.stop();
  tracing = startTracing({
    ...config().otel,
    endpoint: receiver.url,
    headers: { authorization: `Bearer ${COLLECTOR_TOKEN}` },
    serviceName: 'taskmarket-test',
  });
}

const requestSpan = (name: string) => {
  const found = receiver.spans.filter((span) => span.name === name && span.kind === 2);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};
const childrenOf = (parent: ReceivedSpan) => receiver.spans.filter((span) => span.parentSpanId === parent.spanId);

describe('OpenTelemetry over OTLP/HTTP', () => {
  test(
    "behavior: a sign-in's request spans carry route, status and role; KV calls and " + 'statements are their children',
    async () => {
      const wallet = newWallet();
      const issued = await call(nonce, { path: '/api/auth/nonce', body: { address: wallet.address } });
      expect(issued.status).toBe(200);
      const message = siweMessage(wallet, issued.body.nonce);
      const signature = await wallet.signMessage({ message });
      const signedIn = await call(verify, { path: '/api/auth/verify', body: { message, signature } });
      expect(signedIn.status).toBe(200);
      const { token, user } = signedIn.body;
      const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
      expect((await call(me, { path: '/api/auth/me', token })).status).toBe(200);
      expect(
        (await call(agentProfile, { path: `/api/agents/${wallet.address}`, params: { address: wallet.address } }))
          .status,
      ).toBeLessThan(500);
      expect((await call(health, { path: '/api/health' })).status).toBe(200);
      await exported();

      expect(receiver.requests.length).toBeGreaterThan(0);
      for (const { headers } of receiver.requests) expect(headers.authorization).toBe(`Bearer ${COLLECTOR_TOKEN}`);
      expect(new Set(receiver.spans.map((span) => span.service))).toEqual(new Set(['taskmarket-test']));

      const verifySpan = requestSpan('POST /api/auth/verify');
      expect(verifySpan.parentSpanId).toBe('');
      expect(verifySpan.attributes).toMatchObject({
        'http.route': '/api/auth/verify',
        'http.request.method': 'POST',
        'http.response.status_code': 200,
        'taskmarket.caller.role': 'anonymous',
      });
      const verifyChildren = childrenOf(verifySpan);
      expect(verifyChildren.every((span) => span.traceId === verifySpan.traceId)).toBe(true);
      expect(verifyChildren.some((span) => /^kv \w+$/.test(span.name) && span.attributes['db.operation.name'])).toBe(
        true,
      );
      expect(
        verifyChildren.some((span) => /^(SELECT|INSERT|UPDATE|WITH) \w+$/.test(span.name) && span.kind === 3),
      ).toBe(true);

      const nonceSpan = requestSpan('POST /api/auth/nonce');
      expect(nonceSpan.traceId).not.toBe(verifySpan.traceId);
      expect(childrenOf(nonceSpan).map((span) => span.name)).toContain('kv hitThenPutCapped');

      expect(requestSpan('GET /api/auth/me').attributes).toMatchObject({
        'taskmarket.caller.role': user.role,
        'http.response.status_code': 200,
      });
      expect(requestSpan('GET /api/agents/[address]').attributes['http.route']).toBe('/api/agents/[address]');
      const rpc = childrenOf(requestSpan('GET /api/health')).filter((span) => span.name.startsWith('rpc '));
      expect(rpc.map((span) => span.attributes['rpc.method'])).toContain('eth_chainId');

      // Every span has its parent among the exported spans, or is a request span (a root).
      const ids = new Set(receiver.spans.map((span) => span.spanId));
      for (const span of receiver.spans)
        expect(span.parentSpanId === '' ? span.kind : ids.has(span.parentSpanId), span.name).toBeTruthy();

      // Never an address, token, signature, message or cookie: neither decoded nor in the raw bytes.
      const decoded = JSON.stringify(receiver.spans).toLowerCase();
      const raw = Buffer.concat(receiver.requests.map((r) => r.body))
        .toString('latin1')
        .toLowerCase();
      const secrets = [
        wallet.address.slice(2),
        token,
        signature.slice(2),
        issued.body.nonce,
        message.split('\n')[0],
        cookie.split('=')[1],
      ];
      for (const secret of secrets) {
        expect(decoded, 'decoded spans').not.toContain(secret.toLowerCase());
        expect(raw, 'raw OTLP bodies').not.toContain(secret.toLowerCase());
      }
    },
  );

  test(
    "behavior: the sweep's webhook deliveries and settlement attempts are child spans of " + 'its request span',
    async () => {
      const hooks = await startWebhookReceiver();
      const client = await newClient();
      const db = await getDb();
      const [pending] = await db
        .insert(settlements)
        .values({ kind: 'CLAIM', userId: client.id, beneficiary: client.address, amount: '1' })
        .returning({ id: settlements.id });
      try {
        const added = await call(addWebhook, {
          path: '/api/webhooks',
          token: client.token,
          body: { url: hooks.url, events: ['mission.created'] },
        });
        expect(added.status).toBe(201);
        await createMission(client);
        const swept = await call(sweepRoute, {
          path: '/api/cron/sweep',
          method: 'POST',
          headers: { authorization: `Bearer ${process.env.CRON_SECRET}` },
        });
        expect(swept.status).toBe(200);
        expect(hooks.received.length).toBeGreaterThan(0);
        await exported();
        const sweepSpan = requestSpan('POST /api/cron/sweep');
        expect(sweepSpan.attributes['taskmarket.caller.role']).toBe('operator');
        const children = childrenOf(sweepSpan);
        expect(children.find((span) => span.name === 'webhook deliver')).toMatchObject({
          kind: 3,
          attributes: {
            'taskmarket.webhook.event': 'mission.created',
            'taskmarket.webhook.outcome': 'delivered',
            'http.response.status_code': 200,
          },
        });
        const settlement = children.find((span) => span.name === 'settlement process');
        expect(settlement?.attributes).toMatchObject({
          'taskmarket.settlement.kind': 'CLAIM',
          'taskmarket.settlement.status': 'PENDING',
        });
        expect(childrenOf(settlement!).some((span) => span.name === 'UPDATE settlements')).toBe(true);
        const decoded = JSON.stringify(receiver.spans).toLowerCase();
        for (const secret of [client.address.slice(2), client.token, new URL(hooks.url).port + '/hooks'])
          expect(decoded).not.toContain(secret.toLowerCase());
      } finally {
        await db.delete(settlements).where(eq(settlements.id, pending!.id));
        await hooks.close();
      }
    },
  );

  test('error: 10,000 requests to distinct junk paths add no span names (docs/api.md#observability)', async () => {
    const requestSpans = () => receiver.spans.filter((span) => span.kind === 2);
    for (let i = 0; i < 3; i += 1) await junkRequest(i);
    await exported();
    const before = new Set(receiver.spans.map((span) => span.name));
    const counted = requestSpans().length;
    // Sent 500 requests at a time: the batch processor's queue (2,048) drops what it cannot hold.
    for (let i = 0; i < 10_000; i += 1) {
      await junkRequest(i);
      if (i % 500 === 499) await exported();
    }
    expect(requestSpans().length - counted).toBe(10_000);
    expect(new Set(receiver.spans.map((span) => span.name))).toEqual(before);
    for (const route of JUNK_ROUTES) expect(before).toContain(`GET ${route}`);
  });

  test(
    'behavior: a leaf span (a KV command, a statement) is not entered: its parent stays the ' + 'active span',
    async () => {
      const ids: { parent?: string; leaf?: string; activeInLeaf?: string } = {};
      await inSpan('leaf test parent', {}, async (parent) => {
        ids.parent = parent?.spanContext().spanId;
        await inSpan('leaf test leaf', { leaf: true }, async (leaf) => {
          ids.leaf = leaf?.spanContext().spanId;
          ids.activeInLeaf = trace.getActiveSpan()?.spanContext().spanId;
        });
      });
      expect(ids.leaf).toBeDefined();
      expect(ids.activeInLeaf).toBe(ids.parent);
      await exported();
      const leaf = receiver.spans.find((span) => span.name === 'leaf test leaf');
      expect(leaf?.spanId).toBe(ids.leaf);
      expect(leaf?.parentSpanId).toBe(ids.parent);
    },
  );
});
