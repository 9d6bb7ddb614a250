// The remote MCP endpoint's common case (docs/api.md#mcp): one tools/call — every agent action — in
// the plainest form the SDK accepts. Only such a message is answered without building the SDK's
// Server and transport; everything else (initialize, tools/list, ping, notifications, batches,
// _meta, a header or field the SDK might refuse) is the SDK's to answer. Building them per request
// cost ~100 µs of CPU a call, a sixth of the GET a find_missions wraps (npm run bench; end to end,
// docs/libraries.md). tests/fuzz/mcp-tool-call.test.ts holds the two answers equal, byte for
// byte, over generated messages and headers.
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { type CallToolResult, type McpError, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

export interface PlainToolCall {
  id: string | number;
  name: string;
  arguments: Record<string, unknown> | undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every key is one of `allowed`. */
const onlyKeys = (record: Record<string, unknown>, allowed: readonly string[]) =>
  Object.keys(record).every((key) => allowed.includes(key));

/** The call when `body` is a tools/call the SDK would dispatch as it is; undefined for anything else. */
export function plainToolCall(headers: Headers, body: unknown): PlainToolCall | undefined {
  // The transport's checks, in the transport's terms (webStandardStreamableHttp.js).
  const accept = headers.get('accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (!isJsonContentType(headers.get('content-type'))) return undefined;
  const version = headers.get('mcp-protocol-version');
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  // A JSON-RPC request (strict: no other member) whose params are a name and plain arguments.
  if (!isRecord(body) || !onlyKeys(body, ['jsonrpc', 'id', 'method', 'params'])) return undefined;
  const { jsonrpc, id, method, params } = body;
  if (jsonrpc !== '2.0' || method !== 'tools/call') return undefined;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (!isRecord(params) || !onlyKeys(params, ['name', 'arguments'])) return undefined;
  const { name, arguments: args } = params;
  if (typeof name !== 'string') return undefined;
  // zod copies a record key by key, and a "__proto__" key would become the copy's prototype.
  if (args !== undefined && (!isRecord(args) || Object.hasOwn(args, '__proto__'))) return undefined;
  return { id: id as string | number, name, arguments: args };
}

/** The JSON-RPC answer, as the SDK's Protocol builds it and its transport sends it. */
export function toolCallAnswer(call: PlainToolCall, result: CallToolResult): Response {
  return new Response(JSON.stringify({ result, jsonrpc: '2.0', id: call.id }), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** A tool's protocol error (a URL elicitation, docs/api.md#confirmations), as the SDK's Protocol answers one. */
export function toolCallError(call: PlainToolCall, error: McpError): Response {
  const body = {
    jsonrpc: '2.0',
    id: call.id,
    error: { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) },
  };
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
}
