// A tool answer that is not the API's JSON (a downloaded file, a release waiting for the person): its
// own module, so the tools and the answers they build import it without importing each other.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Content blocks answered as they are. */
export class ToolContent {
  constructor(readonly content: CallToolResult['content']) {}
}
