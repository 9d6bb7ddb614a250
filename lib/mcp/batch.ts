// docs/api.md#mcp: one JSON-RPC message per POST. A batch (a JSON array) would run up to a hundred
// tool calls — a hundred files read — in one request, past the per-user rate limit and the
// instance's cap on requests in progress. MCP's 2025-06-18 revision dropped batching, and the
// SDK's client never sends one.

/** The refusal of a batch, in the MCP transport's own error shape; undefined for one message. */
export function batchRefusal(body: unknown): Response | undefined {
  if (!Array.isArray(body)) return undefined;
  const error = {
    code: -32600,
    message: 'Invalid Request: JSON-RPC batches are not accepted; send one message per POST',
  };
  return new Response(JSON.stringify({ jsonrpc: '2.0', error, id: null }), {
    status: 400,
    headers: { 'Content-Type': 'application/json' },
  });
}
