#!/usr/bin/env node
// The `taskmarket` bin: the CLI (src/cli/) and, as `taskmarket mcp`, the MCP server (src/mcp/).
import { createRequire } from 'node:module';
import { main } from './cli/program.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

process.exitCode = await main(process.argv, version);
