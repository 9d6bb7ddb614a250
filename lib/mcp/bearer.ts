// The remote MCP endpoint's own rules (docs/api.md#mcp): a bearer credential only, never the dashboard's
// cookie, and a bounded message.
import { z } from 'zod';
import type { Caller } from '../oauth/caller';
import { ApiError } from '../errors';
import { UPLOAD_LIMITS } from '../uploads/limits';

/**
 * A JSON-RPC message is held in memory whole (unlike a multipart upload, which is streamed), so one
 * carries files of one upload's largest file in all, base64-encoded (4/3), plus room for the rest.
 */
export const MCP_MAX_BODY_BYTES = Math.ceil((UPLOAD_LIMITS.maxFileBytes * 4) / 3) + 256 * 1024;

/** One JSON-RPC message (a batch is refused: batch.ts), checked by the MCP transport itself. */
export const mcpMessage = z.unknown().describe('A JSON-RPC message of the MCP Streamable HTTP transport');

/** A JSON-RPC error response (JSON-RPC 2.0 §5), as the MCP transport answers a message it refuses. */
export const jsonRpcErrorSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]),
  error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
});

/** The caller's bearer credential, passed on to the API calls the tools make. */
export function requireBearer(request: Request, caller: Caller): string {
  const authorization = request.headers.get('authorization');
  if (caller.via === 'cookie' || !authorization)
    throw new ApiError(401, 'MCP needs Authorization: Bearer (an OAuth access token or a personal access token)');
  return authorization.slice('Bearer '.length).trim();
}
