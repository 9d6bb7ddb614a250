// Spans around the work a request waits on (docs/api.md#observability). Tracing is on only when an OTLP endpoint
// is configured (start-tracing.ts); off, `inSpan` is a plain call — no span, no context, no cost.
// Span names and attributes carry names and numbers only: never an address, token, signature,
// message or error text (which for viem and PostgreSQL can quote the values sent).
import { type Attributes, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';

/** What start-tracing.ts registers: our tracer, and how to send what is batched. */
export interface ActiveTracing {
  tracer: Tracer;
  flush(): Promise<void>;
}

// Per process, not per module copy: Next.js loads this module in instrumentation and in each route.
const holder = globalThis as unknown as { [key: symbol]: ActiveTracing | undefined };
const ACTIVE = Symbol.for('taskmarket.tracing');

export const tracingEnabled = (): boolean => holder[ACTIVE] !== undefined;

/** Said by start-tracing.ts when its tracer provider is ready, and (undefined) when it is stopped. */
export function setActiveTracing(active: ActiveTracing | undefined): void {
  holder[ACTIVE] = active;
}

export interface SpanOptions {
  attributes?: Attributes;
  /** `request`: the server span, or an internal one under a recording span of ours. */
  kind?: SpanKind | 'request';
  /**
   * Nothing runs under it (a KV command, a statement): the span is not made the active one, so no
   * context is entered for it — each entry copies the request's async context (Node 24).
   */
  leaf?: true;
}

/**
 * Runs `work` inside a child span of the current one, ended when it settles; a failure marks the span by its error's
 * name.
 */
export function inSpan<T>(
  name: string,
  options: SpanOptions,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  const active = holder[ACTIVE];
  if (!active) return work(undefined);
  const kind =
    options.kind === 'request'
      ? trace.getActiveSpan()?.isRecording()
        ? SpanKind.INTERNAL
        : SpanKind.SERVER
      : (options.kind ?? SpanKind.INTERNAL);
  const spanOptions = { kind, attributes: options.attributes };
  if (options.leaf) return endedAfter(active.tracer.startSpan(name, spanOptions), work);
  return active.tracer.startActiveSpan(name, spanOptions, (span) => endedAfter(span, work));
}

async function endedAfter<T>(span: Span, work: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await work(span);
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorKind(error) });
    span.setAttribute('error.type', errorKind(error));
    throw error;
  } finally {
    span.end();
  }
}

/** Sends the spans batched so far (Vercel freezes a function once its response is out). */
export async function flushSpans(): Promise<void> {
  await holder[ACTIVE]?.flush();
}

/** A failure's kind without its text: a code (ECONNREFUSED, 23505) or the class name. */
export function errorKind(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(code)) return code;
  return error instanceof Error ? error.name : 'Error';
}

export { SpanKind };
