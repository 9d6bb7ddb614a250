// What an MCP client declared it can do, for a server with no sessions (docs/api.md#mcp): initialize and
// the tool calls that follow are separate requests, perhaps to separate instances, so a client's
// URL-mode elicitation (MCP 2025-11-25) is remembered in the shared KV by the grant its token belongs
// to — the last initialize says. A tool may answer with a URL elicitation only where the client
// declared it (docs/api.md#confirmations) and the request speaks a protocol version that has it;
// anything unknown answers in the tool's text, which every client reads.
import 'server-only';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Kv } from '../kv';

const key = (grantId: string) => `mcp:url-elicitation:${grantId}`;
// Refreshed on every initialize; a client connected longer than this falls back to text, never worse.
const REMEMBER_MS = 7 * 24 * 3600 * 1000;
/** URL-mode elicitation came with this protocol revision; versions are dates, so they compare as strings. */
const URL_ELICITATION_SINCE = '2025-11-25';

/** On an initialize from a delegated token: remember whether its client takes URL elicitations. */
export async function noteClientCapabilities(kv: Kv, grantId: string | undefined, body: unknown): Promise<void> {
  if (!grantId || !isInitializeRequest(body)) return;
  const declared = body.params.capabilities.elicitation?.url !== undefined;
  await kv.put(key(grantId), declared ? '1' : '0', REMEMBER_MS);
}

/** Whether this request's client takes a URL elicitation: declared at initialize, and the version has it. */
export function urlElicitationOf(kv: Kv, request: Request, grantId: string | undefined): () => Promise<boolean> {
  return async () => {
    const version = request.headers.get('mcp-protocol-version');
    if (!grantId || version === null || version < URL_ELICITATION_SINCE) return false;
    return (await kv.get(key(grantId))) === '1';
  };
}
