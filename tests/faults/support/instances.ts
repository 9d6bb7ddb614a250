// Production instances of the service for the fault suite: `tsx server.ts` with NODE_ENV=production
// on the committed build (.next), each on its own port, configured only through its environment.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalChain } from '@/lib/chain/local-chain';
import { freePort, until } from './services';

const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const NEXT = join(process.cwd(), 'node_modules', '.bin', 'next');
const START_TIMEOUT_MS = 60_000;
const LOG_LIMIT = 200_000;

export const SIWE_DOMAIN = 'localhost:3000';
export const CHAIN_ID = 31337;
export const CRON_SECRET = `cron-${randomBytes(16).toString('hex')}`;

export interface Instance {
  url: string;
  pid: number;
  /** What the instance printed (its last 200 kB): one JSON line per logged event. */
  logs(): string;
  stop(): Promise<void>;
}

async function answersLive(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/health/live`, { signal: AbortSignal.timeout(2_000) })).status === 200;
  } catch {
    return false;
  }
}

/**
 * `server`: our entry, server.ts (self-hosted). `next start`: Next.js alone, as on Vercel, where no
 * server.ts runs and only the platform's headers name the client.
 */
export type Entry = 'server' | 'next start';

export async function startInstance(env: Record<string, string>, entry: Entry = 'server'): Promise<Instance> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'taskmarket-faults-instance-'));
  const [command, args] = entry === 'server' ? [TSX, ['server.ts']] : [NEXT, ['start', '-p', String(port)]];
  // Only what a deployment would set: nothing of the test runner's own environment leaks in.
  const child: ChildProcess = spawn(command, args, {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', PORT: String(port), DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: tsx runs the server in a child process, and both must go at stop.
    detached: true,
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-LOG_LIMIT);
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

  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    killGroup('SIGTERM');
    const timer = setTimeout(() => killGroup('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
    process.off('exit', killOnExit);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await until(`instance on port ${port}`, async () => {
      if (child.exitCode !== null) throw new Error(`instance exited with code ${child.exitCode}:\n${output}`);
      return answersLive(url);
    }, START_TIMEOUT_MS);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: child.pid!, logs: () => output, stop };
}

export interface Pair {
  a: Instance;
  b: Instance;
  /** Both, for requests spread across them: request i goes to `both[i % 2]`. */
  both: [Instance, Instance];
  stop(): Promise<void>;
}

/**
 * The environment of a production deployment on this machine's services: `services` names the
 * database and Redis, `chain` the local anvil and contracts (none: chain features disabled), and
 * every pair gets its own KV prefix so its nonces, limits and revocations are its own.
 */
export function productionEnv(
  services: { databaseUrl: string; redisUrl: string; chain?: LocalChain },
  overrides: Record<string, string> = {},
): Record<string, string> {
  const { chain } = services;
  return {
    DATABASE_URL: services.databaseUrl,
    REDIS_URL: services.redisUrl,
    KV_PREFIX: `faults:${randomUUID()}:`,
    JWT_SECRET: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    BASE_CHAIN_ID: String(CHAIN_ID),
    SIWE_DOMAIN,
    CRON_SECRET,
    ...(chain && {
      RPC_URL: chain.rpcUrl,
      REGISTRAR_PRIVATE_KEY: chain.registrarKey,
      PASSPORT_ADDRESS: chain.contracts.passport,
      ESCROW_ADDRESS: chain.contracts.escrow,
      REWARD_TOKEN_ADDRESS: chain.contracts.rewardToken,
    }),
    ...overrides,
  };
}

/** Two instances of one deployment: the same environment (and secrets), different ports. */
export async function startPair(env: Record<string, string>): Promise<Pair> {
  const started = await Promise.allSettled([startInstance(env), startInstance(env)]);
  const [a, b] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined));
  if (!a || !b) {
    await Promise.all([a?.stop(), b?.stop()]);
    throw started.find((result) => result.status === 'rejected')!.reason;
  }
  return {
    a,
    b,
    both: [a, b],
    stop: async () => {
      await Promise.all([a.stop(), b.stop()]);
    },
  };
}

/** Requests our instances failed as bugs (logged `request.failed`, answered 500). */
export function loggedFailures(instance: Instance): string[] {
  return instance.logs().split('\n').filter((line) => line.includes('"request.failed"'));
}
