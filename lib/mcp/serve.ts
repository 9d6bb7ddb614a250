// The MCP Streamable HTTP transport, stateless (docs/api.md#mcp): any instance answers any request of
// a session — behind a load balancer and on Vercel alike. A plain tools/call is answered directly,
// as the SDK would answer it (plain-tool-call.ts); any other message by the SDK's server and
// transport, built for the request from the one tool set, answering with JSON (no stream to keep open).
// A batch is neither's: it is refused first (batch.ts).
import 'server-only';
import * as webStandard from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { callTool, createMcpServer, type Session } from '@taskmarket/sdk/mcp';
import sdkPackage from '@taskmarket/sdk/package.json' with { type: 'json' };
import { batchRefusal } from './batch';
import { plainToolCall, toolCallAnswer, toolCallError } from './plain-tool-call';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

export async function serveMcp(request: Request, body: unknown, session: Session): Promise<Response> {
  const refusal = batchRefusal(body);
  if (refusal) return refusal;
  const call = plainToolCall(request.headers, body);
  if (call) {
    try {
      return toolCallAnswer(call, await callTool(session, call.name, call.arguments));
    } catch (error) {
      // callTool throws only a protocol error (a URL elicitation); anything else is a bug, as in the SDK's path.
      if (error instanceof McpError) return toolCallError(call, error);
      throw error;
    }
  }
  return serveBySdk(request, body, session);
}

// Neither is closed: with JSON responses the answer is ready only once every request of the POST
// has been handled, so nothing is left to release, and close() would still build an McpError and
// abort the finished request's controller (a DOMException with a stack) — ~0.3 ms of CPU a call,
// found by profiling npm run bench's MCP scenario. The pair is garbage once the response is sent.
/** Any message, answered by the SDK's server and transport. */
export async function serveBySdk(request: Request, body: unknown, session: Session): Promise<Response> {
  const server = createMcpServer(session, sdkPackage.version);
  const transport = new webStandard.WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  return transport.handleRequest(request, { parsedBody: body });
}
