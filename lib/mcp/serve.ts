// The MCP Streamable HTTP transport, stateless (docs/api.md#mcp): each POST builds the server from the
// one tool set, answers with JSON (no stream to keep open) and closes, so any instance can answer
// any request of a session — behind a load balancer and on Vercel alike.
import 'server-only';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createMcpServer, type Session } from '@taskmarket/sdk/mcp';
import sdkPackage from '@taskmarket/sdk/package.json' with { type: 'json' };

// Neither is closed: with JSON responses the answer is ready only once every request of the POST
// has been handled, so nothing is left to release, and close() would still build an McpError and
// abort the finished request's controller (a DOMException with a stack) — ~0.3 ms of CPU a call,
// found by profiling npm run bench's MCP scenario. The pair is garbage once the response is sent.
export async function serveMcp(request: Request, body: unknown, session: Session): Promise<Response> {
  const server = createMcpServer(session, sdkPackage.version);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(request, { parsedBody: body });
}
