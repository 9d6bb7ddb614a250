// What a host is told of each tool (docs/api.md#mcp-tool-metadata), apart from the tools so that every
// module of tools (tools.ts, offering-tools.ts) reads the same three kinds without importing each other.
/**
 * What a host is told of a tool (MCP ToolAnnotations), every hint explicit (docs/api.md#mcp-tool-metadata);
 * `annotations.title` is the tool's `title`, added where the tools are listed (server.ts).
 */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}
export type ToolAnnotations = ToolHints & { title: string };

/**
 * docs/api.md#mcp-tool-metadata: a read changes nothing. Every tool reaches the API — other users'
 * missions, an escrow on a public chain — so openWorldHint is true throughout.
 */
export const READ: ToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

/**
 * docs/api.md#mcp-tool-metadata: anything that changes state, moves money or writes text others read
 * is destructive, so a host asks its person before it runs.
 */
export const WRITE: ToolHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/**
 * A write that changes nothing more when called again with the same arguments
 * (tests/integration/mcp-tool-metadata.test.ts calls each such tool twice).
 */
export const IDEMPOTENT_WRITE: ToolHints = { ...WRITE, idempotentHint: true };
