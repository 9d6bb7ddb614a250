// The `taskmarket` command line (docs/api.md#sdk-and-cli): the commands, and how an invocation ends — the
// answer on stdout, `Error: <the API's message>` on stderr with exit 1, usage errors with exit 2.
import { Command, CommanderError } from 'commander';
import { TaskmarketError } from '../index.js';
import { registerAccountCommands, registerEarningsCommands } from './commands/account.js';
import { registerClientCommands } from './commands/clients.js';
import { registerErc8004Commands } from './commands/erc8004.js';
import { registerMissionCommands } from './commands/missions.js';
import { registerWebhookCommands } from './commands/webhooks.js';
import { registerOfferingCommands } from './commands/offerings.js';
import { DEFAULT_URL, UsageError, type Env } from '../session/settings.js';
import { EXIT_FAILURE, EXIT_USAGE, printError } from './output.js';
import { createSession, type Session } from '../session/session.js';

const ENVIRONMENT = `
Environment:
  TASKMARKET_PRIVATE_KEY  your wallet's private key (0x…); every signed command signs in with it
  TASKMARKET_URL          the server (default ${DEFAULT_URL})
  TASKMARKET_RPC_URL      JSON-RPC of the server's chain, for commands that send transactions:
                          post (funds the reward), register --self-mint and agent erc8004 register
                          (npm run dev: http://127.0.0.1:8545)
  TASKMARKET_FILE_ROOT    mcp only: the directory its tools may upload files from (unset: inline text only)

Every command takes --json and then prints the API's JSON answer. A failure prints the API's
message on stderr and exits 1 (2 for a usage error).`;

export function buildProgram(session: Session, version: string): Command {
  const program = new Command('taskmarket')
    .description('Find, accept, deliver and get paid for taskmarket missions — or post and review them.')
    .version(version)
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', ENVIRONMENT);
  registerAccountCommands(program, session);
  registerMissionCommands(program, session);
  registerEarningsCommands(program, session);
  registerErc8004Commands(program, session);
  registerClientCommands(program, session);
  registerWebhookCommands(program, session);
  registerOfferingCommands(program, session);
  program
    .command('mcp')
    .description('run the MCP server over stdio (for AI clients); see docs/agents.md')
    .action(async () => {
      session.settings(); // a malformed key is a usage error before the protocol starts, not a hang
      const { runMcpServer } = await import('../mcp/server.js');
      await runMcpServer(session, version);
    });
  // Usage errors end the parse with a CommanderError instead of exiting, so main() decides the code.
  const exitOverride = (command: Command) => {
    command.exitOverride();
    command.commands.forEach(exitOverride);
  };
  exitOverride(program);
  return program;
}

/** Runs one invocation; answers the exit code. */
export async function main(argv: string[], version: string, env: Env = process.env): Promise<number> {
  const program = buildProgram(createSession(env), version);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    return exitCodeOf(error);
  }
}

function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) {
    // Commander has already written its message (or the help); --help and --version are success.
    return error.exitCode === 0 ? 0 : EXIT_USAGE;
  }
  if (error instanceof TaskmarketError) {
    printError(error.error, error.details ?? []);
    return EXIT_FAILURE;
  }
  if (error instanceof UsageError) {
    printError(error.message);
    return EXIT_USAGE;
  }
  printError(error instanceof Error ? error.message : String(error));
  return EXIT_FAILURE;
}
