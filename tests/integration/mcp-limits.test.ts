// docs/api.md#limits and docs/api.md#mcp: /api/mcp is bounded. One JSON-RPC message per request (a
// batch is 400), a per-user rate limit (429), a per-instance cap on requests in progress (503), files
// inline only up to 1 MB (a larger one answers its URL), and an Origin not allowed is 403. The
// review found one request could make the instance hold gigabytes: a batch of 100 get_mission_file
// calls on 10 MB files, each read whole and base64-encoded, with no limit on how many ran at once.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createClient } from '@taskmarket/sdk';
import { callTool, MAX_INLINE_FILE_BYTES, type Session } from '@taskmarket/sdk/mcp';
import { describe, expect, test } from 'vitest';
import { DELETE as deleteMcp, GET as getMcp, POST as postMcp } from '@/app/api/mcp/route';
import { GET as fileRoute, HEAD as fileHead } from '@/app/api/missions/[id]/files/[fileId]/route';
import { GET as missionRoute } from '@/app/api/missions/[id]/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { GET as commentsRoute } from '@/app/api/missions/[id]/comments/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { UPLOAD_LIMITS } from '@/lib/uploads/limits';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { call, randomIp } from '../support/http';
import { createBounty, enter } from '../support/bounties';
import { createMission, missionInput, newAgent, newClient, type Party } from '../support/missions';
import { pngOfSize, upload } from '../support/multipart';
import { connect, MCP_RESOURCE } from '../support/oauth';
import { signIn } from '../support/wallets';

const RATE = 10;
const SLOTS = 4;
const INSPECTOR = 'http://localhost:6274';
useTestEnvironment({
  ...BOOKKEEPING,
  MCP_RATE_LIMIT_PER_MINUTE: String(RATE),
  MCP_MAX_CONCURRENT: String(SLOTS),
  MCP_ALLOWED_ORIGINS: `${INSPECTOR}, https://Client.Example/`,
});

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const URL_ = 'https://app.example.com/api/mcp';
const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const context = { params: Promise.resolve({}) };

const toolCall = (name: string, args: Record<string, unknown>, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** One POST to /api/mcp as `token`, answered by the route handler as Next.js would call it. */
async function post(token: string, body: unknown, headers: Record<string, string> = {}) {
  const request = new Request(URL_, {
    method: 'POST',
    headers: {
      ...MCP_HEADERS,
      authorization: `Bearer ${token}`,
      [SOCKET_ADDRESS_HEADER]: stampedAddress(randomIp()),
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const response = await postMcp(request, context);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

/**
 * A POST whose body the test sends when it likes: the request is in the handler, holding its slot,
 * from `reading` (the handler asked for the body) until `finish` sends it or `abort` breaks it, as a
 * client that goes away mid-upload does.
 */
function heldPost(token: string) {
  let release!: (how: 'finish' | 'abort') => void;
  let pulled = false;
  let markReading!: () => void;
  const reading = new Promise<void>((resolve) => (markReading = resolve));
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        pulled = true;
        markReading();
        const how = await new Promise<'finish' | 'abort'>((resolve) => (release = resolve));
        if (how === 'abort') return controller.error(new Error('client went away'));
        controller.enqueue(new TextEncoder().encode(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request(URL_, {
    method: 'POST',
    headers: { ...MCP_HEADERS, authorization: `Bearer ${token}`, [SOCKET_ADDRESS_HEADER]: stampedAddress(randomIp()) },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  const response = postMcp(request, context);
  return { response, reading, pulled: () => pulled, finish: () => release('finish'), abort: () => release('abort') };
}

/** A public mission by a new client with one attachment of `content`; answers the ids. */
async function attach(filename: string, contentType: string, content: Buffer) {
  const { tags, ...fields } = missionInput();
  const client = await newClient();
  const created = await upload(createRoute, {
    token: client.token,
    fields: { ...fields, tags: tags.join(',') },
    files: [{ filename, contentType, content }],
  });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, fileId: created.body.attachments[0].id as string };
}

interface Block {
  type: string;
  text?: string;
  uri?: string;
  name?: string;
  size?: number;
  mimeType?: string;
}

describe('/api/mcp limits', () => {
  test('error: a JSON-RPC batch is 400 with a JSON-RPC error, and none of its calls runs', async () => {
    const { token } = await signIn();
    const mission = await createMission(await newClient());
    const batch = [
      toolCall('post_comment', { id: mission.id, body: 'first' }, 1),
      toolCall('post_comment', { id: mission.id, body: 'second' }, 2),
    ];
    const answer = await post(token, batch);
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: expect.stringMatching(/batch/i) },
      id: null,
    });
    expect((await call(commentsRoute, { params: { id: mission.id } })).body.items).toEqual([]);
    // An empty batch too; one message is answered.
    expect((await post(token, [])).status).toBe(400);
    expect((await post(token, toolCall('post_comment', { id: mission.id, body: 'one' }))).status).toBe(200);
  });

  test('error: a present Origin that is not an allowed origin is 403, a rebound name included', async () => {
    const { token } = await signIn();
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    // A rebound name: the attacker's page talks to this server under the attacker's host name.
    const rebound = { origin: 'http://rebound.example:3000', host: 'rebound.example:3000' };
    expect((await post(token, ping, rebound)).status).toBe(403);
    const foreign = [
      'http://evil.example',
      'https://evil.example',
      'null',
      'https://app.example.com/path',
      'http://localhost:6275',
      'not an origin',
    ];
    for (const origin of foreign) expect((await post(token, ping, { origin })).status, origin).toBe(403);
    for (const handler of [getMcp, deleteMcp]) {
      const method = handler === getMcp ? 'GET' : 'DELETE';
      expect((await call(handler, { method, token, headers: { origin: 'https://evil.example' } })).status).toBe(403);
    }
    // The app's own origin, the listed browser-based clients (MCP_ALLOWED_ORIGINS, normalised), and a
    // client that sends none (not a browser), are served. Another user: the refusals above counted
    // against the first one's rate limit.
    const { token: other } = await signIn();
    for (const origin of ['https://app.example.com', INSPECTOR, 'https://client.example']) {
      expect((await post(other, ping, { origin })).status, origin).toBe(200);
    }
    expect((await post(other, ping)).status).toBe(200);
  });

  test(
    'error: past MCP_RATE_LIMIT_PER_MINUTE a user is 429 with Retry-After, whichever of its ' +
      'tokens it uses; another user is not',
    async () => {
      const user = await signIn();
      const { tokens } = await connect('missions:read', user, MCP_RESOURCE);
      const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
      for (let i = 0; i < RATE; i++)
        expect((await post(i % 2 ? user.token : tokens.access_token, ping)).status).toBe(200);
      for (const token of [user.token, tokens.access_token]) {
        const refused = await post(token, ping);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expect((await call(getMcp, { token: user.token })).status).toBe(429);
      expect((await post((await signIn()).token, ping)).status).toBe(200);
    },
  );

  test('error: past MCP_MAX_CONCURRENT requests in progress the instance answers 503 with ' +
    'Retry-After, before reading the body; every slot comes back', async () => {
    const users = await Promise.all(Array.from({ length: SLOTS + 1 }, () => signIn()));
    const holdAll = async () => {
      const held = users.slice(0, SLOTS).map((u) => heldPost(u.token));
      await Promise.all(held.map((h) => h.reading));
      return held;
    };
    // A full instance refuses anyone — the cap is the instance's, not a user's — without reading its body.
    let held = await holdAll();
    const extra = heldPost(users[SLOTS]!.token);
    const refused = await extra.response;
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(extra.pulled()).toBe(false);
    // Half finish, half are abandoned mid-body by their clients: all four slots come back.
    held.forEach((h, i) => (i % 2 ? h.abort() : h.finish()));
    const settled = await Promise.all(held.map((h) => h.response));
    expect(settled.filter((_, i) => i % 2 === 0).map((r) => r.status)).toEqual([200, 200]);
    held = await holdAll();
    expect((await heldPost(users[SLOTS]!.token).response).status).toBe(503);
    held.forEach((h) => h.finish());
    expect((await Promise.all(held.map((h) => h.response))).map((r) => r.status)).toEqual(Array(SLOTS).fill(200));
  }, 30_000);

  test(
    'behavior: get_mission_file answers a file of up to 1 MB inline, and a larger one as ' +
      'its download URL, which serves it',
    async () => {
      const { token } = await signIn();
      const exact = Buffer.alloc(MAX_INLINE_FILE_BYTES, 'a');
      const over = Buffer.alloc(MAX_INLINE_FILE_BYTES + 1, 'b');
      const small = await attach('exact.txt', 'text/plain', exact);
      const large = await attach('over.txt', 'text/plain', over);

      const inline = (await post(token, toolCall('get_mission_file', { id: small.id, fileId: small.fileId }))).json()
        .result.content as Block[];
      expect(JSON.parse(inline[0]!.text!)).toMatchObject({ filename: 'exact.txt', size: MAX_INLINE_FILE_BYTES });
      expect(inline[1]).toEqual({ type: 'text', text: exact.toString() });

      const answer = await post(token, toolCall('get_mission_file', { id: large.id, fileId: large.fileId }));
      expect(answer.text.length).toBeLessThan(2_000);
      const linked = answer.json().result.content as Block[];
      const url = `https://app.example.com/api/missions/${large.id}/files/${large.fileId}`;
      expect(JSON.parse(linked[0]!.text!)).toMatchObject({
        id: large.fileId,
        filename: 'over.txt',
        contentType: 'text/plain',
        size: over.length,
        url,
      });
      expect(JSON.parse(linked[0]!.text!).note).toMatch(/bearer token/);
      expect(linked[1]).toEqual({
        type: 'resource_link',
        name: 'over.txt',
        uri: url,
        mimeType: 'text/plain',
        size: over.length,
      });
      const download = await call(fileRoute, {
        token,
        params: { id: large.id, fileId: large.fileId },
        path: new URL(url).pathname,
      });
      expect(download.status).toBe(200);
      expect(download.body).toBe(over.toString());
    },
  );

  test(
    'behavior: taskmarket mcp (stdio, the same tool) answers a large file by its URL too, ' +
      'naming the command that saves it',
    async () => {
      const { token } = await signIn();
      const large = await attach('over.txt', 'text/plain', Buffer.alloc(MAX_INLINE_FILE_BYTES + 1, 'c'));
      // The stdio server's session: an SDK client of the API over HTTP (here, the route handlers), local files allowed.
      const baseUrl = 'http://localhost:3000';
      const routeFetch: typeof fetch = async (input, init) => {
        const request = new Request(input, init);
        request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress(randomIp()));
        const [id, , fileId] = new URL(request.url).pathname.split('/').slice(3);
        return fileId
          ? fileRoute(request, { params: Promise.resolve({ id: id!, fileId }) })
          : missionRoute(request, { params: Promise.resolve({ id: id! }) });
      };
      const client = createClient({ baseUrl, token, fetch: routeFetch });
      const session: Session = {
        settings: () => ({ baseUrl }) as never,
        client: () => client as never,
        token: async () => null,
      };
      const { content } = await callTool(session, 'get_mission_file', { id: large.id, fileId: large.fileId });
      const about = JSON.parse((content[0] as Block).text!);
      expect(about).toMatchObject({
        size: MAX_INLINE_FILE_BYTES + 1,
        url: `${baseUrl}/api/missions/${large.id}/files/${large.fileId}`,
      });
      expect(about.note).toContain(`taskmarket missions download ${large.id} ${large.fileId}`);
      expect(content[1]).toMatchObject({ type: 'resource_link', uri: about.url });
    },
  );

  test(
    "behavior: a file the mission does not list (a bounty entry's) over 1 MB is answered by " +
      'its URL without a byte downloaded; a small one inline, over stdio and remote MCP',
    async () => {
      // An entry's files are on the entries list, not on the mission: the tool asks the download's HEAD.
      const bounty = await createBounty(await newClient());
      const agent = await newAgent();
      const over = Buffer.alloc(MAX_INLINE_FILE_BYTES + 1, 'd');
      const small = Buffer.from('a short entry\n');
      const entry = await enter(agent, bounty.id, 'Two files.', [
        { filename: 'big.txt', contentType: 'text/plain', content: over },
        { filename: 'small.txt', contentType: 'text/plain', content: small },
      ]);
      expect(entry.status, JSON.stringify(entry.body)).toBe(201);
      const [big, little] = entry.body.files as { id: string }[];
      // The stdio server's session over the route handlers, noting each file request and the bytes it served.
      const baseUrl = 'http://localhost:3000';
      const fileRequests: string[] = [];
      let served = 0;
      const routeFetch: typeof fetch = async (input, init) => {
        const request = new Request(input, init);
        request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress(randomIp()));
        const [id, , fileId] = new URL(request.url).pathname.split('/').slice(3);
        if (!fileId) return missionRoute(request, { params: Promise.resolve({ id: id! }) });
        fileRequests.push(`${request.method} ${fileId}`);
        const handler = request.method === 'HEAD' ? fileHead : fileRoute;
        const response = await handler(request, { params: Promise.resolve({ id: id!, fileId }) });
        const bytes = request.method === 'HEAD' ? 0 : (await response.clone().arrayBuffer()).byteLength;
        served += bytes;
        return response;
      };
      const client = createClient({ baseUrl, token: agent.token, fetch: routeFetch });
      const session: Session = {
        settings: () => ({ baseUrl }) as never,
        client: () => client as never,
        token: async () => null,
      };
      const { content } = await callTool(session, 'get_mission_file', { id: bounty.id, fileId: big!.id });
      const about = JSON.parse((content[0] as Block).text!);
      expect(about).toMatchObject({
        id: big!.id,
        contentType: 'text/plain',
        size: over.length,
        url: `${baseUrl}/api/missions/${bounty.id}/files/${big!.id}`,
      });
      expect(content[1]).toMatchObject({ type: 'resource_link', uri: about.url, size: over.length });
      expect(fileRequests).toEqual([`HEAD ${big!.id}`]);
      expect(served).toBe(0);

      const inline = await callTool(session, 'get_mission_file', { id: bounty.id, fileId: little!.id });
      expect(inline.content[1]).toEqual({ type: 'text', text: small.toString() });
      expect(fileRequests.slice(1)).toEqual([`HEAD ${little!.id}`, `GET ${little!.id}`]);
      expect(served).toBe(small.length);

      // Remote MCP: the same, through the in-process API.
      const remote = await post(agent.token, toolCall('get_mission_file', { id: bounty.id, fileId: big!.id }));
      expect(remote.text.length).toBeLessThan(2_000);
      const linked = remote.json().result.content as Block[];
      expect(linked[1]).toMatchObject({ type: 'resource_link', size: over.length });
      const remoteSmall = await post(agent.token, toolCall('get_mission_file', { id: bounty.id, fileId: little!.id }));
      expect((remoteSmall.json().result.content as Block[])[1]).toEqual({ type: 'text', text: small.toString() });
      // Another user cannot see the entry: the HEAD answers the download's own 404.
      const stranger = await newClient();
      const refused = await post(stranger.token, toolCall('get_mission_file', { id: bounty.id, fileId: big!.id }));
      expect(refused.json().result).toMatchObject({ isError: true });
      expect(JSON.stringify(refused.json().result.content)).toMatch(/not found/i);
    },
  );

  test(
    'behavior: 20 concurrent get_mission_file calls on 10 MB files are answered 200, 429 or ' +
      '503 with memory bounded',
    async () => {
      // Two files at the upload limit, as the review's attack used.
      const files = [await attach('a.png', 'image/png', pngOfSize(UPLOAD_LIMITS.maxFileBytes))];
      files.push(await attach('b.png', 'image/png', pngOfSize(UPLOAD_LIMITS.maxFileBytes)));
      // Fifteen calls from one user (five past its rate limit), five from users of their own.
      const heavy: Party = await newClient();
      const others = await Promise.all(Array.from({ length: 5 }, () => newClient()));
      const callers = [...Array(15).fill(heavy), ...others] as Party[];

      const memory = () => {
        const { heapUsed, arrayBuffers } = process.memoryUsage();
        return heapUsed + arrayBuffers;
      };
      gc();
      gc();
      const before = memory();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, memory())), 1);
      const answers = await Promise.all(
        callers.map((caller, i) =>
          post(caller.token, toolCall('get_mission_file', { id: files[i % 2]!.id, fileId: files[i % 2]!.fileId }, i)),
        ),
      ).finally(() => clearInterval(sampler));
      peak = Math.max(peak, memory());

      const statuses = answers.map((a) => a.status);
      expect(statuses.every((s) => s === 200 || s === 429 || s === 503)).toBe(true);
      expect(statuses.filter((s) => s === 429)).toHaveLength(5);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
      // Answered by URL the burst grows heap and buffers by under 3 MB. Answered inline (each call held
      // the file, its base64 and the JSON text) it grew them by 61 MB even four at a time.
      expect(peak - before).toBeLessThan(16 * 1024 * 1024);
      for (const answer of answers.filter((a) => a.status !== 200))
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      for (const answer of answers.filter((a) => a.status === 200)) {
        expect(answer.text.length).toBeLessThan(2_000);
        expect((answer.json().result.content as Block[])[1]).toMatchObject({
          type: 'resource_link',
          size: UPLOAD_LIMITS.maxFileBytes,
        });
      }
    },
  );
});
