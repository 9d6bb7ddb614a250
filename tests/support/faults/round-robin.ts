// One URL in front of several instances, as a load balancer without affinity: request i goes to
// instance i mod n, so a client's consecutive requests land on different instances. Each request
// is recorded with the instance that answered it.
import { createServer, request as forward } from 'node:http';

export interface Served {
  method: string;
  path: string;
  /** Index of the instance that answered. */
  instance: number;
  status: number;
}

export interface RoundRobin {
  url: string;
  served: Served[];
  close(): Promise<void>;
}

export async function startRoundRobin(instances: { url: string }[], port = 0): Promise<RoundRobin> {
  const served: Served[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    const instance = next++ % instances.length;
    const target = new URL(instances[instance]!.url);
    const upstream = forward(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        served.push({ method: req.method!, path: req.url!, instance, status: answer.statusCode! });
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      served.push({ method: req.method!, path: req.url!, instance, status: 502 });
      res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${bound}`,
    served,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
