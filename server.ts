// The production (and dev) server entry: Next.js behind a plain Node HTTP server, so the client's
// socket address reaches the route handlers in a header no client can forge (lib/http/socket-address.ts).
import { createServer } from 'node:http';
import next from 'next';
import { config } from './lib/config';
import { checkConfigAtStart } from './lib/start-up';
import { stampSocketAddress } from './lib/http/socket-address';

async function main() {
  // Before Next.js loads anything: a bad configuration stops here with its message.
  checkConfigAtStart();
  const cfg = config();
  const app = next({ dev: !cfg.production, port: cfg.port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = createServer((request, response) => {
    stampSocketAddress(request);
    void handle(request, response);
  });
  server.listen(cfg.port, () => console.log(`taskmarket listening on http://localhost:${cfg.port}`));
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
