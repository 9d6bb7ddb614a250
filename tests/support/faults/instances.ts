// Production instances of the service for the fault suite, each on its own port and data
// directory, configured only through its environment (started by ../production-server.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@/lib/chain/anvil-node';
import type { LocalChain } from '@/lib/chain/local-chain';
import { chainSettings, type Entry, type ProductionServer, startProductionServer } from '../production-server';

export const SIWE_DOMAIN = 'localhost:3000';
export const CHAIN_ID = 31337;
export const CRON_SECRET = `cron-${randomBytes(16).toString('hex')}`;

export type Instance = ProductionServer;

export async function startInstance(env: Record<string, string>, entry: Entry = 'server'): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'taskmarket-faults-instance-'));
  try {
    const server = await startProductionServer({ port: await freePort(), dataDir, env, entry });
    return {
      ...server,
      stop: async () => {
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
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
    ...(chain && chainSettings(chain)),
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
  return instance
    .logs()
    .split('\n')
    .filter((line) => line.includes('"request.failed"'));
}
