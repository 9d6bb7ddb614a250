// One production server with fresh secrets, an embedded database in `dataDir` and the local
// chain's contracts, as the e2e and SDK suites drive it (started by production-server.ts).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { LocalChain } from '../../lib/chain/local-chain';
import { chainSettings, startProductionServer } from './production-server';

export interface AppServer {
  url: string;
  logFile: string;
  stop(): Promise<void>;
}

// Settings a developer's shell may carry that would point the server elsewhere.
const INHERITED_OUT = [
  'DATABASE_URL',
  'REDIS_URL',
  'KV_REST_API_URL',
  'KV_REST_API_TOKEN',
  'TRUST_PROXY',
  'PLATFORM_FEE_BPS',
];

export async function startAppServer(
  port: number,
  chain: LocalChain,
  dataDir: string,
  overrides: Record<string, string> = {},
): Promise<AppServer> {
  const env: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(process.env))
    if (value !== undefined && !INHERITED_OUT.includes(name)) env[name] = value;
  Object.assign(env, {
    NEXT_TELEMETRY_DISABLED: '1',
    JWT_SECRET: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    BASE_CHAIN_ID: String(chain.chainId),
    SIWE_DOMAIN: `localhost:${port}`,
    // One server, memory KV: the e2e suite drives a single instance (docs/api.md#configuration).
    SINGLE_INSTANCE: '1',
    ...chainSettings(chain),
    ...overrides,
  });
  const logFile = join(dataDir, 'server.log');
  const server = await startProductionServer({
    port,
    dataDir,
    env,
    host: 'localhost',
    readyPath: '/api/health',
    timeoutMs: 90_000,
    logFile,
  });
  return { url: server.url, logFile, stop: server.stop };
}
