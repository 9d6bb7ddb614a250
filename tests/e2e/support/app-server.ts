// The production server the browser talks to: `tsx server.ts` with NODE_ENV=production, fresh
// secrets, an embedded database in a temporary directory, and the local chain's contracts.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import type { LocalChain } from '../../../lib/chain/local-chain';

export interface AppServer {
  url: string;
  logFile: string;
  stop(): Promise<void>;
}

// Settings a developer's shell may carry that would point the server elsewhere.
const INHERITED_OUT = ['DATABASE_URL', 'REDIS_URL', 'KV_REST_API_URL', 'KV_REST_API_TOKEN', 'TRUST_PROXY', 'PLATFORM_FEE_BPS'];

export async function startAppServer(port: number, chain: LocalChain, dataDir: string, overrides: Record<string, string> = {}): Promise<AppServer> {
  const env: NodeJS.ProcessEnv = { NODE_ENV: 'production' };
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !INHERITED_OUT.includes(name)) env[name] = value;
  Object.assign(env, {
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    PORT: String(port),
    JWT_SECRET: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    BASE_CHAIN_ID: String(chain.chainId),
    SIWE_DOMAIN: `localhost:${port}`,
    DATA_DIR: dataDir,
    // One server, memory KV: the e2e suite drives a single instance (docs/api.md#configuration).
    SINGLE_INSTANCE: '1',
    RPC_URL: chain.rpcUrl,
    REGISTRAR_PRIVATE_KEY: chain.registrarKey,
    PASSPORT_ADDRESS: chain.contracts.passport,
    ESCROW_ADDRESS: chain.contracts.escrow,
    REWARD_TOKEN_ADDRESS: chain.contracts.rewardToken,
    ...overrides,
  });
  const logFile = join(dataDir, 'server.log');
  const log = createWriteStream(logFile);
  const child = spawn(join('node_modules', '.bin', 'tsx'), ['server.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`e2e server exited with ${child.exitCode}; see ${logFile}`);
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`e2e server did not become healthy; see ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    logFile,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      log.end();
    },
  };
}
