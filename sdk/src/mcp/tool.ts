// What one MCP tool is (docs/api.md#mcp): apart from the lists of tools, so that every module of tools
// (tools.ts, offering-tools.ts) names the shape without importing another.
import type { Session } from '../session/session.js';
import type { ToolHints } from './hints.js';
import type { JsonSchema } from './schemas.js';

type Args = Record<string, unknown>;

export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  /** READ, WRITE or IDEMPOTENT_WRITE. */
  annotations: ToolHints;
  /**
   * The answer: the API's JSON text as it came (an SDK call's `.text()`: nothing parsed or written
   * again), a value to answer as JSON, or ToolContent.
   */
  run(args: Args, session: Session): Promise<unknown>;
}
