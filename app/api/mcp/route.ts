import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { MCP_MAX_BODY_BYTES, mcpMessage, requireBearer } from '@/lib/mcp/bearer';
import { createRemoteSession } from '@/lib/mcp/remote-session';
import { serveMcp } from '@/lib/mcp/serve';
import { issuerOf } from '@/lib/oauth/metadata';
import { inProcessFetch } from './api-routes';
import { protocolDocumentSchema } from '@/lib/oauth/schemas';

// Remote MCP (docs/api.md#mcp): the `taskmarket mcp` tools over Streamable HTTP, for a bearer token
// (OAuth or tm_). The caller is known before the body is read; each tool call is the API's own
// route, called with the same token, so scopes are enforced there.
export const POST = route({
  auth: 'user', scope: 'any', body: mcpMessage, maxBodyBytes: MCP_MAX_BODY_BYTES,
  doc: {
    tag: 'MCP', summary: 'MCP Streamable HTTP (stateless, JSON responses): the taskmarket tools',
    description: 'Bearer only (OAuth access token or tm_ token); a 401 names the protected-resource metadata in WWW-Authenticate. Each tool calls the API with the same token, so its scopes apply.',
    response: protocolDocumentSchema, errors: [413],
  },
}, async ({ request, body, caller, cfg }) => {
  const token = requireBearer(request, caller);
  const session = createRemoteSession({ baseUrl: issuerOf(cfg), token, fetch: inProcessFetch(request, caller) });
  return serveMcp(request, body, session);
});

// Stateless: no stream for server-initiated messages (MCP allows 405 here), and no session to end.
export const GET = route({
  auth: 'user', scope: 'any',
  doc: { tag: 'MCP', summary: 'No server-sent stream here: answers 405', response: protocolDocumentSchema },
}, async ({ request, caller }) => {
  requireBearer(request, caller);
  return json({ error: 'This MCP server offers no SSE stream: send requests with POST' }, { status: 405, headers: { Allow: 'POST, DELETE' } });
});

export const DELETE = route({
  auth: 'user', scope: 'any',
  doc: { tag: 'MCP', summary: 'End a session (stateless: nothing to end), 204', response: protocolDocumentSchema, status: 204 },
}, async ({ request, caller }) => {
  requireBearer(request, caller);
  return new Response(null, { status: 204 });
});

export const { PUT, PATCH } = otherMethods('GET', 'POST', 'DELETE');
