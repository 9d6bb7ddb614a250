// Turns tracing on when OTEL_EXPORTER_OTLP_ENDPOINT is set (API.md §19): a tracer provider for the
// process, spans batched and sent by OTLP/HTTP (protobuf) to `<endpoint>/v1/traces` through the
// redacting exporter. Unset, nothing is registered and every span point is a plain call.
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Config } from '../config';
import { RedactingExporter } from './redacting-exporter';
import { markTracingEnabled, tracingEnabled } from './tracing';

export interface Tracing {
  /** Sends what is batched, then unregisters: tracing is off again. */
  stop(): Promise<void>;
}

export function startTracing(otel: Config['otel']): Tracing | undefined {
  // Next.js may call instrumentation's register() again in development: one provider a process.
  if (!otel.endpoint || tracingEnabled()) return undefined;
  const exporter = new OTLPTraceExporter({ url: `${otel.endpoint.replace(/\/+$/, '')}/v1/traces`, headers: otel.headers });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: otel.serviceName }),
    spanProcessors: [new BatchSpanProcessor(new RedactingExporter(exporter))],
  });
  // Also installs the W3C trace-context propagator: an incoming `traceparent` continues its trace.
  provider.register();
  markTracingEnabled(true);
  return {
    async stop() {
      markTracingEnabled(false);
      await provider.shutdown();
      trace.disable();
    },
  };
}
