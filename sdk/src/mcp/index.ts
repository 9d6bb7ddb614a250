// The MCP server as a library: the one set of tools, served over stdio by `taskmarket mcp` and over
// Streamable HTTP by the taskmarket server itself (/api/mcp, docs/api.md#mcp).
export { callTool, createMcpServer, INSTRUCTIONS, listedTools, readUiResource, toolError } from './server.js';
export { listedResources, MISSION_CARD_URI, OFFERINGS_URI, TOOL_UI, UI_RESOURCES } from './apps.js';
export { MAX_INLINE_FILE_BYTES, TOOLS, type Tool } from './tools.js';
export { ToolInputError } from './tool-input.js';
export type { Session } from '../session/session.js';
export type { Settings, Client } from '../session/settings.js';
