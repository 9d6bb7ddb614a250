// A JSON-RPC node that misbehaves on request: a real HTTP server in front of this worker's anvil
// that passes every call through, except those `answer` decides to answer itself (a JSON-RPC error,
// an HTTP status, or silence). It stands in for a rate-limited or failing provider, which a local
// anvil never is.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxyAnswer = { error: { code: number; message: string } } | { httpStatus: number } | 'hang';

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
    if (own && 'httpStatus' in own) {
      response.writeHead(own.httpStatus, { 'content-type': 'text/plain' }).end('slow down');
      return;
    }
    if (own) {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: own.error }));
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
