// Spans around the work a request waits on (API.md §19). Tracing is on only when an OTLP endpoint
// is configured (start-tracing.ts); off, `inSpan` is a plain call — no span, no context, no cost.
// Span names and attributes carry names and numbers only: never an address, token, signature,
// message or error text (which for viem and PostgreSQL can quote the values sent).
import { type Attributes, type ProxyTracerProvider, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const holder = globalThis as unknown as { [key: symbol]: boolean | undefined };
const ENABLED = Symbol.for('taskmarket.tracing');

export const tracingEnabled = (): boolean => holder[ENABLED] === true;

/** Said by start-tracing.ts when its tracer provider is registered, and when it is stopped. */
export function markTracingEnabled(enabled: boolean): void {
  holder[ENABLED] = enabled;
}

/** Sends the spans batched so far (Vercel freezes a function once its response is out). */
export async function flushSpans(): Promise<void> {
  const provider = (trace.getTracerProvider() as ProxyTracerProvider).getDelegate() as { forceFlush?: () => Promise<void> };
  await provider.forceFlush?.();
}

export interface SpanOptions {
  attributes?: Attributes;
  /** `request`: the server span, or an internal one under the server span Next.js opened itself. */
  kind?: SpanKind | 'request';
}

/** Runs `work` inside a child span of the current one, ended when it settles; a failure marks the span by its error's name. */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!tracingEnabled()) return work(undefined);
  const kind = options.kind === 'request' ? (trace.getActiveSpan() ? SpanKind.INTERNAL : SpanKind.SERVER) : (options.kind ?? SpanKind.INTERNAL);
  return trace.getTracer('taskmarket').startActiveSpan(name, { kind, attributes: options.attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorKind(error) });
      span.setAttribute('error.type', errorKind(error));
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A failure's kind without its text: a code (ECONNREFUSED, 23505) or the class name. */
export function errorKind(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(code)) return code;
  return error instanceof Error ? error.name : 'Error';
}

export { SpanKind };
