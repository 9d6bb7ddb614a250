// The one way a suite starts a production server (e2e, SDK, faults): `tsx server.ts` — or `next
// start`, as on Vercel — with NODE_ENV=production on the current build, on the port it is given,
// configured only through the environment it is given; ready once a health route answers, and
// stopped with its whole process group (tsx runs the server in a child process).
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import type { LocalChain } from '../../lib/chain/local-chain';
import { ANVIL_KEYS } from '../../lib/chain/anvil-node';

const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const NEXT = join(process.cwd(), 'node_modules', '.bin', 'next');
const LOG_LIMIT = 200_000;

/**
 * `server`: our entry, server.ts (self-hosted). `next start`: Next.js alone, as on Vercel, where no
 * server.ts runs and only the platform's headers name the client.
 */
export type Entry = 'server' | 'next start';

export interface ProductionServerOptions {
  port: number;
  dataDir: string;
  /** Its settings; of the caller's own environment only PATH and HOME reach it unless given here. */
  env: Record<string, string | undefined>;
  entry?: Entry;
  /** The host its URL names: `localhost` where the SIWE domain is localhost:port. */
  host?: 'localhost' | '127.0.0.1';
  /** The route that says it is up: /api/health/live (the process), or /api/health (its dependencies too). */
  readyPath?: '/api/health/live' | '/api/health';
  timeoutMs?: number;
  /** A file that gets everything it prints, besides the last 200 kB kept for `logs()`. */
  logFile?: string;
}

export interface ProductionServer {
  url: string;
  pid: number;
  /** What it printed (the last 200 kB): one JSON line per logged event. */
  logs(): string;
  stop(): Promise<void>;
}

/** The settings that point a server at a local chain and its contracts. */
export const chainSettings = (chain: LocalChain) => ({
  RPC_URL: chain.rpcUrl,
  REGISTRAR_PRIVATE_KEY: chain.registrarKey,
  // In production the relayer relays only with a key of its own (docs/operating.md).
  RELAYER_PRIVATE_KEY: ANVIL_KEYS[6],
  PASSPORT_ADDRESS: chain.contracts.passport,
  ESCROW_ADDRESS: chain.contracts.escrow,
  REWARD_TOKEN_ADDRESS: chain.contracts.rewardToken,
});

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

export async function startProductionServer(options: ProductionServerOptions): Promise<ProductionServer> {
  const {
    port,
    dataDir,
    entry = 'server',
    host = '127.0.0.1',
    readyPath = '/api/health/live',
    timeoutMs = 60_000,
  } = options;
  const [command, args] = entry === 'server' ? [TSX, ['server.ts']] : [NEXT, ['start', '-p', String(port)]];
  const child: ChildProcess = spawn(command, args, {
    cwd: process.cwd(),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...options.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const file = options.logFile ? createWriteStream(options.logFile) : undefined;
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-LOG_LIMIT);
    file?.write(chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // Already gone.
    }
  };
  const killOnExit = () => killGroup('SIGKILL');
  process.on('exit', killOnExit);

  const stop = async () => {
    killGroup('SIGTERM');
    const timer = setTimeout(() => killGroup('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
    process.off('exit', killOnExit);
    file?.end();
  };
  const url = `http://${host}:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const failure =
      child.exitCode !== null
        ? `exited with code ${child.exitCode}`
        : Date.now() > deadline
          ? `did not answer ${readyPath} within ${timeoutMs} ms`
          : undefined;
    if (failure) {
      await stop();
      throw new Error(
        `production server on port ${port} ${failure}` +
          `${options.logFile ? ` (log: ${options.logFile})` : ''}:\n${output}`,
      );
    }
    if (await answers(url + readyPath)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, pid: child.pid!, logs: () => output, stop };
}
