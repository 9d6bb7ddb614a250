// The fan-out bench's loopback receivers, in a process of their own (scripts/bench/fanout.ts): every
// endpoint's URL is this server with its own `?n=`, answered 200 at once. In the bench's process they
// shared its event loop with the posting client and the balancer, so 400 deliveries a second queued
// the client's own answers behind them: the harness, not the service, slowed the posts it measured.
// Prints `{"port":N}` when listening; `GET /stats` answers `{ received, lastAt }`: the endpoints that got a
// delivery (only the fan-out's one mission has subscribers), and when the last one did.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const seen = new Set<string>();
let lastAt = 0;

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://receiver');
  if (url.pathname === '/stats') {
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ received: seen.size, lastAt }));
    return;
  }
  request.resume();
  request.on('end', () => {
    response.writeHead(200).end();
    seen.add(url.search);
    lastAt = Date.now();
  });
});
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
