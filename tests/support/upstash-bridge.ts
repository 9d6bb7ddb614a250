// A stand-in for Upstash's REST API (what Vercel KV is), which cannot run here: a real HTTP server
// that speaks the protocol @vercel/kv / @upstash/redis use and runs each command on this machine's
// Redis. Single commands (POST / with a JSON array), pipelines (/pipeline) and transactions
// (/multi-exec), EVAL and EVALSHA like any command, a bearer token, and `Upstash-Encoding: base64`
// answers. Used when TEST_KV=vercel, so the suites hold the Vercel KV driver to Redis's behaviour.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';

type Command = (string | number)[];
type Reply = { result: unknown } | { error: string };

// Upstash encodes every string of a result in base64 (status replies such as OK excepted) when
// the client asks for it; numbers and nil pass as they are, arrays element by element.
function encode(value: unknown, base64: boolean): unknown {
  if (!base64) return value;
  if (typeof value === 'string') return value === 'OK' ? value : Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map((element) => encode(element, base64));
  return value;
}

async function run(redis: Redis, command: Command, base64: boolean): Promise<Reply> {
  const [name, ...args] = command;
  try {
    const result = await redis.call(String(name), ...args.map(String));
    return { result: encode(result, base64) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function answer(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export async function startUpstashBridge(redisUrl: string) {
  const token = randomBytes(24).toString('hex');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const server = createServer(async (request, response) => {
    if (request.method !== 'POST') return answer(response, 405, { error: 'Method not allowed' });
    if (request.headers.authorization !== `Bearer ${token}`) return answer(response, 401, { error: 'Unauthorized' });
    const base64 = String(request.headers['upstash-encoding'] ?? '').toLowerCase() === 'base64';
    let body: unknown;
    try {
      body = await readBody(request);
    } catch {
      return answer(response, 400, { error: 'ERR failed to parse command' });
    }
    const path = new URL(request.url ?? '/', 'http://bridge').pathname;
    if (path === '/pipeline' || path === '/multi-exec') {
      if (!Array.isArray(body) || !body.every(Array.isArray))
        return answer(response, 400, { error: 'ERR malformed pipeline' });
      const commands = body as Command[];
      if (path === '/multi-exec') {
        // One transaction: queued in MULTI and run by EXEC, as Upstash does.
        const results =
          (await redis.multi(commands.map(([name, ...args]) => [String(name), ...args.map(String)])).exec()) ?? [];
        return answer(
          response,
          200,
          results.map(([error, result]) => (error ? { error: error.message } : { result: encode(result, base64) })),
        );
      }
      const replies: Reply[] = [];
      for (const command of commands) replies.push(await run(redis, command, base64));
      return answer(response, 200, replies);
    }
    // Single command: in the body, or path-style (/set/key/value).
    const command = Array.isArray(body) ? (body as Command) : path.split('/').filter(Boolean).map(decodeURIComponent);
    const reply = await run(redis, command, base64);
    return answer(response, 'error' in reply ? 400 : 200, reply);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
    },
  };
}
