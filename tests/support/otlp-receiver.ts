// A real OTLP/HTTP trace receiver for tests: POST /v1/traces with a protobuf
// ExportTraceServiceRequest, decoded by the code protobufjs generated from the official
// opentelemetry-proto definitions (as shipped in @opentelemetry/otlp-transformer 0.57, installed
// as otlp-generated-protos). An OpenTelemetry Collector cannot be installed here.
import { createRequire } from 'node:module';
import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const require = createRequire(import.meta.url);
const { opentelemetry } = require('otlp-generated-protos/build/src/generated/root.js');
const ExportTraceServiceRequest = opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  service: string;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** The raw request bodies and headers, as the exporter sent them. */
  requests: { headers: IncomingHttpHeaders; body: Buffer }[];
  close(): Promise<void>;
}

type AnyValue = {
  stringValue?: string;
  intValue?: { toNumber(): number } | number;
  doubleValue?: number;
  boolValue?: boolean;
};
type KeyValue = { key: string; value: AnyValue };

const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('hex');
const readValue = (value: AnyValue) =>
  value.stringValue ??
  value.boolValue ??
  value.doubleValue ??
  (typeof value.intValue === 'number' ? value.intValue : value.intValue?.toNumber()) ??
  '';
const attributesOf = (list: KeyValue[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, readValue(value)]));

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver['requests'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      if (
        request.method !== 'POST' ||
        request.url !== '/v1/traces' ||
        request.headers['content-type'] !== 'application/x-protobuf'
      ) {
        response.writeHead(404).end();
        return;
      }
      requests.push({ headers: request.headers, body });
      const decoded = ExportTraceServiceRequest.decode(body);
      for (const resourceSpans of decoded.resourceSpans) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
        for (const scopeSpans of resourceSpans.scopeSpans) {
          for (const span of scopeSpans.spans) {
            spans.push({
              traceId: hex(span.traceId),
              spanId: hex(span.spanId),
              parentSpanId: hex(span.parentSpanId),
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
              service,
            });
          }
        }
      }
      // An empty ExportTraceServiceResponse: everything accepted.
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
