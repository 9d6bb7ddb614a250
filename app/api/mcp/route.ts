import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { preflight } from '@/lib/http/cors';
import { readJson } from '@/lib/http/validation';
import { jsonRpcErrorSchema, MCP_MAX_BODY_BYTES, mcpMessage, requireBearer } from '@/lib/mcp/bearer';
import { errorBodySchema } from '@/lib/http/error-body';
import { z } from 'zod';
import { inSlot } from '@/lib/mcp/in-progress';
import { assertMcpOrigin } from '@/lib/mcp/origin';
import { createRemoteSession } from '@/lib/mcp/remote-session';
import { noteClientCapabilities, urlElicitationOf } from '@/lib/mcp/client-capabilities';
import { serveMcp } from '@/lib/mcp/serve';
import { isModernRequest, serveModern } from '@/lib/mcp/modern';
import { batchRefusal } from '@/lib/mcp/batch';
import { ScopeChallengeWatch } from '@/lib/mcp/step-up';
import { issuerOf } from '@/lib/oauth/metadata';
import { inProcessFetch } from './api-routes';
import { protocolDocumentSchema } from '@/lib/oauth/schemas';

// Remote MCP (docs/api.md#mcp): the `taskmarket mcp` tools over Streamable HTTP, for a bearer token
// (OAuth or tm_). The caller is known before the body is read; each tool call is the API's own
// route, called with the same token, so scopes are enforced there — a call refused a scope is this
// endpoint's 403 with the scope challenge (docs/api.md#step-up). Bounded (docs/api.md#limits): the
// per-user limit is counted before anything is read, and the message is read only inside one of
// the instance's slots, so no more than MCP_MAX_CONCURRENT bodies and answers are held at once.
export const POST = route(
  {
    auth: 'user',
    scope: 'any',
    limit: 'mcp',
    resource: 'mcp',
    cors: true,
    doc: {
      tag: 'MCP',
      summary: 'MCP Streamable HTTP (stateless, JSON responses): the taskmarket tools',
      description:
        'Bearer only (OAuth access token or tm_ token); a 401 names the protected-resource ' +
        'metadata in WWW-Authenticate. Each tool calls the API with the same token, so its ' +
        'scopes apply: a tool call needing a scope the token lacks is 403 with WWW-Authenticate ' +
        'error="insufficient_scope" (step-up). One JSON-RPC message per request: a batch is 400. ' +
        "A present Origin that is not one of the app's own origins or MCP_ALLOWED_ORIGINS is 403 " +
        '(DNS rebinding: a page on a rebound name, an opaque null, any other site); a request with ' +
        "no Origin passes. Beyond the instance's requests in progress, 503 with Retry-After.",
      body: mcpMessage,
      response: protocolDocumentSchema,
      errors: [
        413,
        {
          status: 400,
          description:
            'A message the MCP transport refuses — a batch, an invalid JSON-RPC message, an unsupported ' +
            'MCP-Protocol-Version, standard headers that disagree with the body — as a JSON-RPC error ' +
            '(`{ jsonrpc, id, error: { code, message } }`, `id` null when unknown); a body that is not ' +
            'JSON, or a token in the query string, as `{ error }`',
          schema: z.union([jsonRpcErrorSchema, errorBodySchema]),
        },
        {
          status: 403,
          description:
            "A present Origin outside the app's own origins and MCP_ALLOWED_ORIGINS (`{ error }`), or " +
            'a tool call needing a scope the token lacks: `WWW-Authenticate: Bearer error="insufficient_scope", ' +
            'scope="…"` (step-up)',
          schema: errorBodySchema,
        },
      ],
    },
  },
  async ({ request, caller, cfg, kv }) => {
    const token = requireBearer(request, caller);
    assertMcpOrigin(request, cfg);
    return inSlot(cfg.limits.mcpMaxConcurrent, async () => {
      const body = await readJson(request, MCP_MAX_BODY_BYTES);
      const refusal = batchRefusal(body);
      if (refusal) return refusal;
      const stepUp = new ScopeChallengeWatch();
      // docs/api.md#mcp-protocol-eras: a 2026-07-28 client says what it can do on every request.
      if (await isModernRequest(request, body)) {
        const session = createRemoteSession({
          baseUrl: issuerOf(cfg),
          token,
          fetch: stepUp.watching(inProcessFetch(request, caller)),
        });
        const principal = `${caller.user.id}:${caller.grant?.id ?? ''}`;
        return stepUp.answer(await serveModern(request, body, { session, cfg, principal }));
      }
      await noteClientCapabilities(kv, caller.grant?.id, body);
      const session = createRemoteSession({
        baseUrl: issuerOf(cfg),
        token,
        fetch: stepUp.watching(inProcessFetch(request, caller)),
        urlElicitation: urlElicitationOf(kv, request, caller.grant?.id),
      });
      return stepUp.answer(await serveMcp(request, body, session));
    });
  },
);

// Stateless: no stream for server-initiated messages (MCP allows 405 here), and no session to end.
export const GET = route(
  {
    auth: 'user',
    scope: 'any',
    limit: 'mcp',
    resource: 'mcp',
    cors: true,
    doc: {
      tag: 'MCP',
      summary: 'No server-sent stream here: answers 405',
      response: protocolDocumentSchema,
      errors: [403, 405],
    },
  },
  async ({ request, caller, cfg }) => {
    requireBearer(request, caller);
    assertMcpOrigin(request, cfg);
    return json(
      { error: 'This MCP server offers no SSE stream: send requests with POST' },
      { status: 405, headers: { Allow: 'POST, DELETE' } },
    );
  },
);

export const DELETE = route(
  {
    auth: 'user',
    scope: 'any',
    limit: 'mcp',
    resource: 'mcp',
    cors: true,
    doc: {
      tag: 'MCP',
      summary: 'End a session (stateless: nothing to end), 204',
      response: protocolDocumentSchema,
      status: 204,
    },
  },
  async ({ request, caller, cfg }) => {
    requireBearer(request, caller);
    assertMcpOrigin(request, cfg);
    return new Response(null, { status: 204 });
  },
);

export const OPTIONS = preflight('GET', 'POST', 'DELETE');
export const { PUT, PATCH } = otherMethods('GET', 'POST', 'DELETE');
