// One HTTP request to an address the guard checked (url-guard.ts; docs/api.md#webhooks): Host and SNI
// stay the URL's, but the socket connects to exactly `target`, so DNS rebinding between the check
// and the connect gets nowhere. No agent (no pooled socket to another address), no redirects
// followed. Used by webhook deliveries and by client metadata document fetches.
import 'server-only';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface PinnedRequestOptions {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Aborting destroys the request, and the response while it is read. */
  signal: AbortSignal;
  /** Certificate authorities to trust instead of Node's defaults (tests only: config's webhooks.testCa). */
  ca?: string[];
}

/** Settles at the status line with the response, unread: the caller reads or destroys it. */
export function pinnedRequest(
  url: URL,
  target: { address: string; family: number },
  options: PinnedRequestOptions,
): Promise<IncomingMessage> {
  const { method, headers, body, signal, ca } = options;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
        ...(ca && { ca }),
        // Happy-eyeballs asks for every address (`all`); either way only the checked one is given.
        lookup: ((_host: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) =>
          lookupOptions.all ? callback(null, [target]) : callback(null, target.address, target.family)) as never,
      },
      resolve,
    );
    const onAbort = () => request.destroy(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('close', () => signal.removeEventListener('abort', onAbort));
    request.on('error', reject);
    request.end(body);
  });
}

/** `work`, or the signal's reason once it aborts (a DNS lookup cannot be cancelled, only left behind). */
export const abortable = <T>(work: Promise<T>, signal: AbortSignal) =>
  Promise.race([
    work,
    new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
    ),
  ]);
