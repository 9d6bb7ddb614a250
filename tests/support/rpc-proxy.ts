// A JSON-RPC node that misbehaves on request: a real HTTP server in front of this worker's anvil
// that passes every call through, except those `answer` decides to answer itself (a JSON-RPC error,
// an HTTP status, or silence). It stands in for a rate-limited or failing provider, which a local
// anvil never is.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// `{ after }`: passed through once the promise settles, so a test can hold a call in flight;
// `{ result }`: answered with that result instead, as a node behind the chain's head would;
// 'lost': passed through, its answer dropped for a 503 (the node took it, the caller never hears).
export type ProxyAnswer =
  | 'lost'
  | { error: { code: number; message: string } }
  | { result: unknown }
  | { httpStatus: number }
  | { after: Promise<unknown> }
  | 'hang';

export async function startRpcProxy(
  upstream: string,
  // `params` lets a test refuse one call and not its neighbours (say, an eth_call naming one nonce).
  answer: (method: string, params: unknown[]) => ProxyAnswer | undefined,
) {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const call = JSON.parse(body) as { id: number; method: string; params?: unknown[] };
    const own = Array.isArray(call) ? undefined : answer(call.method, call.params ?? []);
    if (own === 'hang') return; // never answered: the client's timeout decides
    if (own === 'lost') {
      const passed = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await passed.arrayBuffer();
      response.writeHead(503, { 'content-type': 'text/plain' }).end('lost');
      return;
    }
    if (own && 'after' in own) await own.after.catch(() => undefined);
    if (own && 'httpStatus' in own) {
      response.writeHead(own.httpStatus, { 'content-type': 'text/plain' }).end('slow down');
      return;
    }
    if (own && ('error' in own || 'result' in own)) {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: call.id, ...own }));
      return;
    }
    const passed = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    response.writeHead(passed.status, { 'content-type': 'application/json' }).end(await passed.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A node down for sending: reads answer (an approval reads the task it releases, docs/api.md#escrow),
 * everything else is refused as unreachable — the settlement it leads to is recorded, not sent.
 */
export const startReadOnlyRpc = (upstream: string) =>
  startRpcProxy(upstream, (method) =>
    ['eth_call', 'eth_chainId', 'eth_blockNumber', 'eth_getLogs'].includes(method) ? undefined : { httpStatus: 503 },
  );
