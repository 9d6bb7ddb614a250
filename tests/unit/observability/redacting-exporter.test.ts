// The last guard before spans leave the process (lib/observability/redacting-exporter.ts): real
// spans from a tracer provider, exported through it to an in-memory exporter.
import { SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, describe, expect, test } from 'vitest';
import { RedactingExporter } from '@/lib/observability/redacting-exporter';

const memory = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new RedactingExporter(memory))] });
const tracer = provider.getTracer('test');
afterAll(() => provider.shutdown());

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
const TOKEN = 'tm_3kTq9vXw2Lr8';

function exported(make: (span: ReturnType<typeof tracer.startSpan>) => void) {
  memory.reset();
  const span = tracer.startSpan('work');
  make(span);
  span.end();
  const [out] = memory.getFinishedSpans();
  return { span, out: out! };
}

describe('RedactingExporter', () => {
  test(
    'behavior: secret shapes are masked in the name, attributes, status and events; URL and ' +
      'exception texts are dropped',
    () => {
      const { out } = exported((span) => {
        span.updateName(`GET /api/agents/${ADDRESS}`);
        span.setAttributes({
          'http.url': `https://x/?token=${TOKEN}`,
          'taskmarket.note': `bearer ${JWT}`,
          list: ['fine', TOKEN],
          count: 3,
        });
        span.setStatus({ code: SpanStatusCode.ERROR, message: `signer ${ADDRESS}` });
        span.addEvent('exception', { 'exception.message': `bad ${TOKEN}`, 'exception.type': 'Error' });
      });
      const text = JSON.stringify({
        name: out.name,
        attributes: out.attributes,
        status: out.status,
        events: out.events.map((e) => ({ name: e.name, attributes: e.attributes })),
      });
      for (const secret of [ADDRESS, JWT, TOKEN]) expect(text).not.toContain(secret);
      expect(out.name).toBe('GET /api/agents/[redacted]');
      expect(out.attributes).toEqual({
        'taskmarket.note': 'bearer [redacted]',
        list: ['fine', '[redacted]'],
        count: 3,
      });
      expect(out.status.message).toBe('signer [redacted]');
      expect(out.events[0]!.attributes).toEqual({ 'exception.type': 'Error' });
    },
  );

  test('behavior: refresh tokens, client secrets and webhook secrets are masked by their prefixes too', () => {
    const secrets = [
      'tmr_Zx3-q_9kLm2Pw8RtYv0aBcDeFgHiJkLmNoPqRsTuVwX',
      'tms_Ab-9_cdEfGhIjKlMnOpQrStUvWxYz0123456789abcd',
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+/1k9q==',
    ];
    const { out } = exported((span) => {
      span.updateName(`refresh ${secrets[0]}`);
      span.setAttributes({ 'taskmarket.note': `client ${secrets[1]}`, list: [`webhook ${secrets[2]}!`] });
    });
    expect(out.name).toBe('refresh [redacted]');
    expect(out.attributes).toEqual({ 'taskmarket.note': 'client [redacted]', list: ['webhook [redacted]!'] });
  });

  test('behavior: a dropped key alone is enough to clean the span', () => {
    const { out } = exported((span) => span.setAttribute('url.query', 'page=2'));
    expect(out.attributes).toEqual({});
  });

  test(
    'behavior: a span with nothing to clean is exported as it is, not copied; a cleaned one ' +
      'leaves the original alone',
    () => {
      const { span, out } = exported((s) =>
        s.setAttributes({ 'db.query.summary': 'SELECT missions', 'http.response.status_code': 200 }),
      );
      expect(out).toBe(span);
      const second = exported((s) => s.setAttribute('taskmarket.note', TOKEN));
      expect(second.out).not.toBe(second.span);
      expect((second.span as unknown as { attributes: Record<string, unknown> }).attributes['taskmarket.note']).toBe(
        TOKEN,
      );
    },
  );
});
