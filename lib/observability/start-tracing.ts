// Turns tracing on when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/api.md#observability): our tracer provider,
// spans batched and sent by OTLP/HTTP (protobuf) to `<endpoint>/v1/traces` through the redacting
// exporter. Unset, nothing is registered and every span point is a plain call.
//
// The provider is ours alone, not the global one: Next.js traces through the global provider, and
// its spans (six or so a request) doubled the cost of a traced request and carry raw paths. Only
// the context manager and the W3C propagator are global, so our spans nest and an incoming
// `traceparent` (which Next.js extracts) still continues the caller's trace.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Config } from '../config';
import { RedactingExporter } from './redacting-exporter';
import { setActiveTracing, tracingEnabled } from './tracing';

export interface Tracing {
  /** Sends what is batched, then unregisters: tracing is off again. */
  stop(): Promise<void>;
}

export function startTracing(otel: Config['otel']): Tracing | undefined {
  // Next.js may call instrumentation's register() again in development: one provider a process.
  if (!otel.endpoint || tracingEnabled()) return undefined;
  const exporter = new OTLPTraceExporter({
    url: `${otel.endpoint.replace(/\/+$/, '')}/v1/traces`,
    headers: otel.headers,
  });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: otel.serviceName }),
    spanProcessors: [new BatchSpanProcessor(new RedactingExporter(exporter))],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  setActiveTracing({ tracer: provider.getTracer('taskmarket'), flush: () => provider.forceFlush() });
  return {
    async stop() {
      setActiveTracing(undefined);
      await provider.shutdown();
      context.disable();
      propagation.disable();
      trace.disable();
    },
  };
}
