// Records the TCP peer of each request in a header of our own before Next.js sees it, stamped with
// a secret of this process. `next start` passes client headers through unchanged, so only the
// socket is a sound source, and only a header this process wrote is believed (docs/api.md#client-ip).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { processStamp, SOCKET_ADDRESS_HEADER, setProcessStamp } from './client-ip';

/** The header value server.ts writes for `address` in this process. */
export function stampedAddress(address: string): string {
  // Drawn once per process: a random draw per request cost more than the rest of the stamping.
  if (!processStamp()) setProcessStamp(randomBytes(16).toString('hex'));
  return `${processStamp()} ${address}`;
}

export function stampSocketAddress(request: IncomingMessage): void {
  // Whatever the client sent under our header name is dropped, whatever its case or count.
  delete request.headers[SOCKET_ADDRESS_HEADER];
  request.headers[SOCKET_ADDRESS_HEADER] = stampedAddress(request.socket.remoteAddress ?? 'unknown');
}
