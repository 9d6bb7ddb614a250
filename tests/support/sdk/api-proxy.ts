// An HTTP proxy in front of the real server that misbehaves on request, for what a real server
// cannot be made to do on cue: answer 429 or 503 (its real limits have minute and hour windows),
// or lose an answer after doing the work. Every request is recorded; `decide` may answer one
// itself (`reply`), pass it through and then answer its own status instead of the server's
// (`lose`), or let it through (undefined). Like tests/support/rpc-proxy.ts for JSON-RPC.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export type ProxyDecision = { reply: number; retryAfter?: string } | { lose: number; retryAfter?: string } | undefined;

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export async function startApiProxy(
  upstream: string,
  decide: (request: ProxiedRequest, seen: ProxiedRequest[]) => ProxyDecision,
) {
  const seen: ProxiedRequest[] = [];
  const server = createServer(async (request, response) => {
    const proxied: ProxiedRequest = {
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      headers: request.headers,
    };
    const decision = decide(proxied, seen);
    seen.push(proxied);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const own = (status: number, retryAfter?: string) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
      response.writeHead(status, headers).end(
        JSON.stringify({
          error:
            status === 429
              ? 'Too many requests (injected by the test proxy)'
              : 'Unavailable (injected by the test proxy)',
        }),
      );
    };
    if (decision && 'reply' in decision) return own(decision.reply, decision.retryAfter);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers))
      if (!HOP_BY_HOP.has(name) && typeof value === 'string') headers[name] = value;
    const passed = await fetch(new URL(proxied.path, upstream), {
      method: proxied.method,
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await passed.arrayBuffer());
    if (decision && 'lose' in decision) return own(decision.lose, decision.retryAfter);
    const answer: Record<string, string> = {};
    passed.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') answer[name] = value;
    });
    response.writeHead(passed.status, answer).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  return {
    // `localhost`, as the server's own URL: the suite's server admits SIWE messages for any localhost port.
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
