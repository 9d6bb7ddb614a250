// Records the TCP peer of each request in a header of our own before Next.js sees it. `next start`
// passes a client-sent X-Forwarded-For through unchanged, so only the socket is a sound source.
import type { IncomingMessage } from 'node:http';
import { SOCKET_ADDRESS_HEADER } from './client-ip';

export function stampSocketAddress(request: IncomingMessage): void {
  // Whatever the client sent under our header name is dropped, whatever its case or count.
  delete request.headers[SOCKET_ADDRESS_HEADER];
  const address = request.socket.remoteAddress ?? 'unknown';
  request.headers[SOCKET_ADDRESS_HEADER] = address.startsWith('::ffff:') ? address.slice(7) : address;
}
