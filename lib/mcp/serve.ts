// The MCP Streamable HTTP transport, stateless (docs/api.md#mcp): each POST builds the server from the
// one tool set, answers with JSON (no stream to keep open) and closes, so any instance can answer
// any request of a session — behind a load balancer and on Vercel alike.
import 'server-only';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createMcpServer, type Session } from '@taskmarket/sdk/mcp';
import sdkPackage from '@taskmarket/sdk/package.json' with { type: 'json' };

export async function serveMcp(request: Request, body: unknown, session: Session): Promise<Response> {
  const server = createMcpServer(session, sdkPackage.version);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    await server.close();
  }
}
