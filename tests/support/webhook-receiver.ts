// A real HTTP server on localhost standing in for a customer's webhook endpoint: it records what
// it is sent and answers 200, or a chosen failure status while `failing`; while held, it answers
// nothing until released.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export async function startWebhookReceiver() {
  const received: Received[] = [];
  let failWith: number | null = null;
  let held: (() => void)[] | null = null;
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (held) await new Promise<void>((resolve) => held!.push(resolve));
    if (failWith !== null) {
      response.writeHead(failWith).end();
      return;
    }
    received.push({
      path: request.url ?? '/',
      headers: request.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      at: Date.now(),
    });
    response.writeHead(200).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    /** Events received, as (type, mission id) in arrival order. */
    events: () => received.map((r) => JSON.parse(r.body) as { type: string; data: { mission?: { id: string } } }),
    fail(status: number | null) {
      failWith = status;
    },
    /** Requests from now on wait for the answer until the function returned is called. */
    hold(): () => void {
      const waiting: (() => void)[] = (held = []);
      return () => {
        held = null;
        for (const resume of waiting) resume();
      };
    },
    /** How many requests are waiting in a hold. */
    heldCount: () => held?.length ?? 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
