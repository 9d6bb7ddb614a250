// MCP 2026-07-28 on /api/mcp (docs/api.md#mcp-protocol-eras): the same tools, served per request by the
// v2 SDK's createMcpHandler — server/discover, the per-request `_meta` envelope, the Mcp-Method/Mcp-Name
// headers checked against the body, resultType on results — beside the 2025 path (serve.ts), which
// stays as it was. A 2026 client says what it can do on every request (its envelope), so nothing is
// remembered of it; a release waiting for the person, or a mission waiting for its funding, is answered
// `input_required` with a URL-mode elicitation and a sealed requestState, and the client's retry is
// answered from that state: the confirmation's decision, the mission as it now is.
import 'server-only';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type CallToolResult,
  createMcpHandler,
  type InputRequiredResult,
  inputRequired,
  isLegacyRequest,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  callTool,
  INSTRUCTIONS,
  listedResources,
  listedTools,
  readUiResource,
  type Session,
} from '@taskmarket/sdk/mcp';
import sdkPackage from '@taskmarket/sdk/package.json' with { type: 'json' };
import { EncryptJWT, jwtDecrypt } from 'jose';
import type { Config } from '../config';

/** What a retry needs to know, sealed into requestState: which wait, for which call, by whom. */
interface Waiting {
  /** A release waiting for the person's yes (a confirmation id), or a mission waiting for its funding. */
  kind: 'confirmation' | 'funding';
  id: string;
  url: string;
  message: string;
  /** The call it answers: the tool and its arguments, hashed. */
  call: string;
}

// docs/api.md#mcp-protocol-eras: a confirmation lives 24 hours, an unfunded mission 24 hours.
const STATE_TTL = '25h';
const STATE_AUDIENCE = 'mcp-request-state';

/** A key of its own for requestState, derived from JWT_SECRET (domain-separated: never a token's key). */
async function stateKey(cfg: Config): Promise<Uint8Array> {
  const bytes = new TextEncoder().encode(`taskmarket mcp requestState\0${cfg.jwtSecret}`);
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
}

async function callDigest(principal: string, name: string, args: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify([principal, name, args ?? {}]));
  return Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('base64url');
}

/** Sealed (encrypted and authenticated, A256GCM) for this principal: a client reads nothing of it, changes nothing. */
async function seal(cfg: Config, principal: string, waiting: Waiting): Promise<string> {
  return new EncryptJWT({ ...waiting })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setSubject(principal)
    .setAudience(STATE_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(STATE_TTL)
    .encrypt(await stateKey(cfg));
}

async function unseal(cfg: Config, principal: string, state: string): Promise<Waiting> {
  const { payload } = await jwtDecrypt(state, await stateKey(cfg), { audience: STATE_AUDIENCE, subject: principal });
  return payload as unknown as Waiting;
}

const envelopeOf = (ctx: ServerContext) => (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;

/** Whether this request's client takes a URL elicitation: its envelope says so, every time. */
function declaresUrlElicitation(ctx: ServerContext): boolean {
  const capabilities = envelopeOf(ctx)[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: { url?: unknown } } | undefined;
  return capabilities?.elicitation?.url !== undefined;
}

export interface Served {
  session: Session;
  cfg: Config;
  /** Who is calling: the user and the grant, so a sealed state is good for this caller only. */
  principal: string;
}

/** The waiting the tools threw as a URL elicitation (confirmation.ts, funding.ts), or undefined. */
function waitingOf(error: unknown): Omit<Waiting, 'call'> | undefined {
  if (!(error instanceof McpError) || error.code !== ErrorCode.UrlElicitationRequired) return undefined;
  const [elicitation] = (error.data as { elicitations: { elicitationId: string; url: string; message: string }[] })
    .elicitations;
  const { elicitationId, url, message } = elicitation!;
  return elicitationId.startsWith('funding-')
    ? { kind: 'funding', id: elicitationId.slice('funding-'.length), url, message }
    : { kind: 'confirmation', id: elicitationId, url, message };
}

async function askPerson(served: Served, waiting: Waiting): Promise<InputRequiredResult> {
  return inputRequired({
    inputRequests: { [waiting.kind]: inputRequired.elicitUrl({ message: waiting.message, url: waiting.url }) },
    requestState: await seal(served.cfg, served.principal, waiting),
  });
}

const text = (...parts: string[]): CallToolResult => ({
  content: parts.map((t) => ({ type: 'text' as const, text: t })),
});

/** A confirmation's retry: decided, its outcome; still waiting, the person is asked again. */
async function confirmationRetry(served: Served, waiting: Waiting): Promise<CallToolResult | InputRequiredResult> {
  const answer = await served.session.client().account.confirmation(waiting.id).text();
  const { status } = JSON.parse(answer) as { status: string };
  if (status === 'PENDING') return askPerson(served, waiting);
  if (status === 'APPROVED') return text(answer, 'The person approved: the payment was released.');
  return text(answer, `The person's answer is ${status}: nothing was released.`);
}

async function toolCall(
  served: Served,
  name: string,
  args: Record<string, unknown> | undefined,
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  const call = await callDigest(served.principal, name, args);
  // Unsealed by the seam before this runs (modernServer: a state that does not open is -32602).
  const waiting = ctx.mcpReq.requestState<Waiting>();
  if (waiting) {
    if (waiting.call !== call) {
      return { content: [{ type: 'text', text: 'This retry does not match the call it answers.' }], isError: true };
    }
    if (waiting.kind === 'confirmation') return confirmationRetry(served, waiting);
    // Funding: the same post again (its Idempotency-Key is its arguments) answers the mission as it now is.
  }
  const session = Object.assign(Object.create(served.session) as Session, {
    urlElicitation: async () => declaresUrlElicitation(ctx),
  });
  try {
    return await callTool(session, name, args);
  } catch (error) {
    const waiting = waitingOf(error);
    if (!waiting) throw error;
    return askPerson(served, { ...waiting, call });
  }
}

function modernServer(served: Served): Server {
  const server = new Server(
    { name: 'taskmarket', title: 'taskmarket', version: sdkPackage.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: INSTRUCTIONS,
      requestState: { verify: (state: string) => unseal(served.cfg, served.principal, state) },
    },
  );
  server.setRequestHandler('tools/list', () => ({ tools: listedTools() as never }));
  server.setRequestHandler('resources/list', () => ({ resources: listedResources() }));
  server.setRequestHandler('resources/read', (request) => readUiResource(request.params.uri) as never);
  server.setRequestHandler('tools/call', (request, ctx) =>
    toolCall(served, request.params.name, request.params.arguments, ctx),
  );
  return server;
}

/** Whether `body` is a 2026-07-28 message (it claims the per-request envelope): the SDK's own classification. */
export const isModernRequest = async (request: Request, body: unknown): Promise<boolean> =>
  !(await isLegacyRequest(request, body));

/** A 2026-07-28 message, answered by the v2 SDK's handler. */
export async function serveModern(request: Request, body: unknown, served: Served): Promise<Response> {
  const handler = createMcpHandler(() => modernServer(served), { legacy: 'reject' });
  return handler.fetch(request, { parsedBody: body });
}
