// The fetch the chain's RPC transport uses: a span per JSON-RPC request named by its method
// (`rpc eth_call`; calldata, addresses and signed transactions stay out), and failed requests
// counted (docs/api.md#observability).
import { countDependencyError } from '../observability/metrics';
import { SpanKind, inSpan, tracingEnabled } from '../observability/tracing';

export function rpcFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  if (!tracingEnabled()) return counted(input, init);
  const method = rpcMethod(init?.body);
  return inSpan(
    `rpc ${method}`,
    { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'jsonrpc', 'rpc.method': method } },
    async (span) => {
      const response = await counted(input, init);
      span?.setAttribute('http.response.status_code', response.status);
      return response;
    },
  );
}

async function counted(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  try {
    const response = await fetch(input, init);
    if (!response.ok) countDependencyError('rpc');
    return response;
  } catch (error) {
    countDependencyError('rpc');
    throw error;
  }
}

// viem sends one request, or a batch (an array) when batching is on.
function rpcMethod(body: RequestInit['body']): string {
  if (typeof body !== 'string') return 'request';
  if (body.trimStart().startsWith('[')) return 'batch';
  return /"method"\s*:\s*"([A-Za-z0-9_]{1,64})"/.exec(body)?.[1] ?? 'request';
}
