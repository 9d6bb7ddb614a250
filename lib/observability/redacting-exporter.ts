// Before spans leave the process: URL attributes are dropped (other instrumentation records
// the request path and query, which can hold an address), exception texts are dropped,
// and anything shaped like an address, signature, hash, JWT or access token is masked — in names,
// attributes, events and status. Our own spans carry none (tracing.ts): this is the last guard.
// Tokens are known by their prefixes: tm_ (access and personal), tmr_ (refresh), tms_ (client
// secret), and whsec_ (webhook signing secret, standard base64).
import type { Attributes } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter, TimedEvent } from '@opentelemetry/sdk-trace-node';

const DROPPED = new Set([
  'http.url',
  'http.target',
  'url.full',
  'url.path',
  'url.query',
  'exception.message',
  'exception.stacktrace',
]);
const SECRET_SHAPES = /0x[0-9a-fA-F]{40,}|eyJ[\w-]*\.[\w-]*\.[\w-]*|tm[rs]?_[\w-]+|whsec_[\w+/=-]+/g;
// The same shapes without the global flag: `test` on a /g pattern carries lastIndex between calls.
const HAS_SECRET = new RegExp(SECRET_SHAPES.source);

export const redact = (text: string): string => text.replace(SECRET_SHAPES, '[redacted]');

const suspect = (value: unknown): boolean =>
  typeof value === 'string'
    ? HAS_SECRET.test(value)
    : Array.isArray(value) && value.some((v) => typeof v === 'string' && HAS_SECRET.test(v));

function attributesNeedCleaning(attributes: Attributes): boolean {
  for (const key in attributes) if (DROPPED.has(key) || suspect(attributes[key])) return true;
  return false;
}

// Our spans never need it (tracing.ts): checking costs a scan of their few strings, where a copy
// of every span cost as much CPU as serialising it (a profile of the traced verify in npm run bench).
function needsCleaning(span: ReadableSpan): boolean {
  return (
    HAS_SECRET.test(span.name) ||
    attributesNeedCleaning(span.attributes) ||
    span.events.length > 0 ||
    (span.status.message !== undefined && HAS_SECRET.test(span.status.message))
  );
}

function clean(attributes: Attributes): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (DROPPED.has(key)) continue;
    kept[key] =
      typeof value === 'string'
        ? redact(value)
        : Array.isArray(value)
          ? (value.map((v) => (typeof v === 'string' ? redact(v) : v)) as typeof value)
          : value;
  }
  return kept;
}

function cleaned(span: ReadableSpan): ReadableSpan {
  if (!needsCleaning(span)) return span;
  // The span itself is left alone; the copy inherits everything it does not override.
  const copy = Object.create(span) as ReadableSpan;
  return Object.assign(copy, {
    name: redact(span.name),
    attributes: clean(span.attributes),
    events: span.events.map(
      (event): TimedEvent => ({
        ...event,
        name: redact(event.name),
        attributes: event.attributes && clean(event.attributes),
      }),
    ),
    status: span.status.message === undefined ? span.status : { ...span.status, message: redact(span.status.message) },
  });
}

export class RedactingExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans.map(cleaned), done);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
