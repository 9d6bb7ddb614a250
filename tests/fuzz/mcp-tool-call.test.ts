// The remote MCP server's plain path (lib/mcp/plain-tool-call.ts) against the MCP SDK it stands in
// for: whenever it takes a message, the SDK's own server and transport, given the same request,
// answer 200 with the same bytes. Messages and headers are generated near the plain form (one
// member changed, added or dropped) and at random. The tools run with a stand-in session whose
// client answers every call with its own path and arguments (or, asked to, refuses like the API):
// what is compared is the protocol around a tool's answer. Real tools with side effects would answer
// the second path differently, so the real API's answers taken both ways are
// tests/integration/mcp-remote.test.ts's (through the route, the SDK's way forced by `_meta`).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import * as webStandard from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { TaskmarketError } from '@taskmarket/sdk';
import { callTool, type Client as SdkClient, type Session, TOOLS } from '@taskmarket/sdk/mcp';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { plainToolCall, toolCallAnswer } from '@/lib/mcp/plain-tool-call';
import { serveBySdk, serveMcp } from '@/lib/mcp/serve';
import { casesFor, runs } from '../support/fuzz/budget';

/** A client whose every call answers its own path and arguments, or refuses when asked to. */
function standInClient(path: string[] = []): SdkClient {
  const call = (...args: unknown[]) => {
    const refused = JSON.stringify(args).includes('refuse');
    const answer = refused
      ? Promise.reject(new TaskmarketError({ status: 409, error: 'Stand-in refusal', details: ['one', 'two'] }))
      : Promise.resolve({ path, args });
    answer.catch(() => {});
    return Object.assign(answer, { text: () => answer.then((value) => JSON.stringify(value)) });
  };
  return new Proxy(call, {
    get: (_, key) => (typeof key === 'string' ? standInClient([...path, key]) : undefined),
  }) as never;
}
const session: Session = {
  remote: true,
  settings: () => ({ baseUrl: 'https://app.example.com' }) as never,
  client: () => standInClient(),
  token: async () => null,
};

const PLAIN_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const requestOf = (headers: Record<string, string>) =>
  new Request('https://app.example.com/api/mcp', { method: 'POST', headers });
const bytesOf = async (response: Response) => ({
  status: response.status,
  type: response.headers.get('content-type'),
  body: await response.text(),
});

const toolName = fc.oneof(fc.constantFrom(...TOOLS.map((t) => t.name)), fc.string({ maxLength: 12 }));
const key = fc.oneof(
  fc.constantFrom('constructor', 'toString', 'refuse', 'id', 'limit', 'q', 'mine'),
  fc.string({ maxLength: 8 }),
);
// Sometimes with an own "__proto__" member, as JSON.parse makes one (zod's copy drops it).
const args = fc
  .tuple(
    fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) }),
  )
  .map(([members, proto]) => {
    if (proto === undefined) return members;
    const rest = JSON.stringify(members).slice(1);
    return JSON.parse(`{"__proto__":${JSON.stringify(proto)}${rest === '}' ? '' : ','}${rest}`) as Record<
      string,
      unknown
    >;
  });
const id = fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constantFrom(1.5, 2 ** 53, -0, null, true, NaN));
const plainMessage = fc
  .record({
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 10 })),
    name: toolName,
    args: fc.option(args, { nil: undefined }),
  })
  .map(({ id, name, args }) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: args === undefined ? { name } : { name, arguments: args },
  }));

/** A plain message with one member changed, added or dropped, at the top or in params. */
const nearMessage = fc
  .tuple(
    plainMessage,
    fc.constantFrom('top', 'params'),
    fc.constantFrom('jsonrpc', 'id', 'method', 'params', 'name', 'arguments', '_meta', 'task', 'extra'),
    fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      id,
      args,
      fc.constantFrom('2.0', '1.0', 'tools/call', 'tools/list', 'ping', undefined),
    ),
  )
  .map(([message, where, member, value]) => {
    const copy = structuredClone(message) as Record<string, unknown> & { params: Record<string, unknown> };
    const target = where === 'top' ? copy : copy.params;
    if (value === undefined) delete target[member];
    else target[member] = value;
    return copy;
  });
const body = fc.oneof(
  { weight: 6, arbitrary: plainMessage },
  { weight: 6, arbitrary: nearMessage },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(plainMessage, { maxLength: 2 }) },
);

const headerValue = (plain: string, others: string[]) =>
  fc.oneof(
    { weight: 20, arbitrary: fc.constant(plain) },
    { weight: 2, arbitrary: fc.constantFrom(...others) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  );
const headers = fc
  .record({
    accept: fc.option(
      headerValue(PLAIN_HEADERS.accept, [
        'application/json',
        'text/event-stream',
        '*/*',
        'text/event-stream, application/json;q=0.9',
        'application/jsonl, text/event-stream',
      ]),
      { nil: undefined },
    ),
    'content-type': fc.option(
      headerValue(PLAIN_HEADERS['content-type'], [
        'application/json; charset=utf-8',
        'APPLICATION/JSON',
        'application/json;',
        ' application/json',
        'application/jsonx',
        'text/plain',
        'application/json, text/plain',
      ]),
      { nil: undefined },
    ),
    'mcp-protocol-version': fc.option(
      fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS) },
        { weight: 1, arbitrary: fc.constantFrom('2099-01-01', '', '2025-06-18 ') },
      ),
      { nil: undefined },
    ),
  })
  .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>);

describe('remote MCP: the plain tools/call path', () => {
  test('property: whenever the plain path takes a message, the SDK answers it 200 with the same bytes', async () => {
    let taken = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(headers, body, async (h, message) => {
        const call = plainToolCall(requestOf(h).headers, message);
        if (!call) return;
        taken++;
        const ours = await bytesOf(toolCallAnswer(call, await callTool(session, call.name, call.arguments)));
        const sdks = await bytesOf(await serveBySdk(requestOf(h), structuredClone(message), session));
        if (ours.body.includes('"isError":true')) refused++;
        expect(ours).toEqual({ ...sdks, status: 200 });
      }),
      {
        ...runs(casesFor('mcpToolCall', 2)),
        examples: [
          [
            PLAIN_HEADERS,
            { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_missions', arguments: { q: 'x' } } },
          ],
          [
            PLAIN_HEADERS,
            {
              jsonrpc: '2.0',
              id: 'a',
              method: 'tools/call',
              params: { name: 'get_mission', arguments: { id: 'refuse' } },
            },
          ],
          [
            PLAIN_HEADERS,
            JSON.parse(
              '{"jsonrpc":"2.0","id":2,"method":"tools/call",' +
                '"params":{"name":"find_missions","arguments":{"__proto__":{"q":"x"},"limit":1}}}',
            ),
          ],
        ],
      },
    );
    // The generators reach the path, and both its answers: a tool's text and its refusal.
    expect(taken).toBeGreaterThan(Math.floor(casesFor('mcpToolCall', 2) / 10));
    expect(refused).toBeGreaterThan(0);
    expect(taken - refused).toBeGreaterThan(0);
  });

  // The tool answers a stand-in session cannot give: a file as content blocks (get_mission_file).
  const textBlock = fc.record({ type: fc.constant('text' as const), text: fc.string() });
  const block = fc.oneof(
    textBlock,
    fc.record({
      type: fc.constant('image' as const),
      data: fc.base64String(),
      mimeType: fc.constantFrom('image/png', 'image/jpeg'),
    }),
    fc.record({
      type: fc.constant('resource' as const),
      resource: fc.record({
        uri: fc.webUrl(),
        mimeType: fc.constantFrom('application/pdf', 'application/zip'),
        blob: fc.base64String(),
      }),
    }),
    // A file over the inline limit: its download URL (sdk/src/mcp/tools.ts builds the members in this order).
    fc.record({
      name: fc.string(),
      uri: fc.webUrl(),
      mimeType: fc.constantFrom('application/pdf', 'image/png', 'text/plain'),
      size: fc.nat(),
      type: fc.constant('resource_link' as const),
    }),
  );
  const result: fc.Arbitrary<CallToolResult> = fc.oneof(
    fc.array(block, { minLength: 1, maxLength: 3 }).map((content) => ({ content })),
    textBlock.map((text) => ({ content: [text], isError: true })),
  );

  test('property: any answer a tool gives is sent as the SDK sends it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.integer(), fc.string({ maxLength: 10 })), result, async (id, answer) => {
        const message = {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'get_mission_file', arguments: {} },
        };
        const server = new Server({ name: 'taskmarket', version: '1' }, { capabilities: { tools: {} } });
        server.setRequestHandler(CallToolRequestSchema, async () => structuredClone(answer));
        const transport = new webStandard.WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        await server.connect(transport);
        const sdks = await bytesOf(await transport.handleRequest(requestOf(PLAIN_HEADERS), { parsedBody: message }));
        expect(
          await bytesOf(toolCallAnswer(plainToolCall(requestOf(PLAIN_HEADERS).headers, message)!, answer)),
        ).toEqual(sdks);
      }),
      runs(casesFor('mcpToolCall', 2)),
    );
  });

  test(
    "example: what the SDK's own client sends for a tool call takes the plain path, and " + "initialize the SDK's",
    async () => {
      const seen: { body: unknown; plain: boolean }[] = [];
      const fetch: typeof globalThis.fetch = async (input, init) => {
        const request = new Request(input, init);
        const message = await request.json();
        seen.push({ body: message, plain: plainToolCall(request.headers, message) !== undefined });
        return serveMcp(request, message, session);
      };
      const client = new Client({ name: 'plain-path-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL('https://app.example.com/api/mcp'), { fetch }));
      const answer = (await client.callTool({ name: 'find_missions', arguments: { limit: 2 } })) as CallToolResult;
      expect(JSON.parse((answer.content[0] as { text: string }).text)).toEqual({
        path: ['missions', 'list'],
        args: [{ limit: 2 }],
      });
      expect(seen.map(({ body, plain }) => [(body as { method: string }).method, plain])).toEqual([
        ['initialize', false],
        ['notifications/initialized', false],
        ['tools/call', true],
      ]);
      await client.close();
    },
  );
});
