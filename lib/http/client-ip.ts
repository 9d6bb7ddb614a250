// The client IP used for per-IP limits. Never a header a client can forge: the socket address
// recorded by our server entry (server.ts), or an X-Forwarded-For entry TRUST_PROXY hops from the
// right when the operator says proxies sit in front.

/** Set by server.ts from the TCP socket; any copy sent by a client is dropped there first. */
export const SOCKET_ADDRESS_HEADER = 'x-taskmarket-socket-address';

export function clientIp(headers: Headers, trustProxy: number, onVercel: boolean): string {
  // On Vercel there is no socket of ours: the platform overwrites x-real-ip with the client's.
  const socket = headers.get(SOCKET_ADDRESS_HEADER) ?? (onVercel ? headers.get('x-real-ip') : null);
  if (trustProxy === 0) return socket ?? 'unknown';
  const forwarded = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  // The chain is client, proxy1, …, proxyN, then the socket peer; each trusted hop is one step left.
  const chain = socket ? [...forwarded, socket] : forwarded;
  return chain[Math.max(0, chain.length - 1 - trustProxy)] ?? 'unknown';
}
