// The MCP SDK's own client over Streamable HTTP, the way a hosted AI client reaches /api/mcp:
// authorized by a fixed bearer (a personal access token) or by an OAuth provider, with tool
// answers read back as the API's JSON.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

export type McpAuth = { token: string } | { authProvider: OAuthClientProvider };

export function mcpTransport(url: string | URL, auth: McpAuth, fetch?: FetchLike): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), {
    ...('token' in auth
      ? { requestInit: { headers: { authorization: `Bearer ${auth.token}` } } }
      : { authProvider: auth.authProvider }),
    ...(fetch && { fetch }),
  });
}

export async function connectMcp(url: string | URL, auth: McpAuth, fetch?: FetchLike): Promise<Client> {
  const client = new Client({ name: 'taskmarket-tests', version: '1.0.0' });
  await client.connect(mcpTransport(url, auth, fetch));
  return client;
}

/** Calls a tool and answers its JSON; a tool error (isError) throws with the tool's message. */
export async function callTool<T = any>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  const [first] = result.content as { type: string; text?: string }[];
  if (result.isError) throw new Error(`${name}: ${first?.text ?? 'tool error'}`);
  return JSON.parse(first!.text!) as T;
}
