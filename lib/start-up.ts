// The configuration checked once as a server starts, so a deployment missing a required setting
// stops with a message naming it (docs/api.md#configuration, #operator-secrets, #vercel) instead of answering 500s, and
// the settings that work but deserve a look are said once.
import { ConfigError, config } from './config';

// server.ts checks before Next.js loads, and Next.js's instrumentation checks again in the same
// process: the warnings are said once.
const checked = globalThis as { __taskmarketStartChecked?: boolean };

export function checkConfigAtStart(): void {
  if (checked.__taskmarketStartChecked) return;
  try {
    for (const warning of config().warnings) console.warn(`warning: ${warning}`);
    checked.__taskmarketStartChecked = true;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
