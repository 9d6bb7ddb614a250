// Starts and stops a local anvil node for tests, the dev script and benchmarks, and names anvil's well-known dev keys.
// It does not deploy anything (lib/chain/deploy.ts does).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Hex } from 'viem';

/** Anvil's default accounts 0–9 (mnemonic "test test … junk"): public, for local chains only. */
export const ANVIL_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
] as const satisfies readonly Hex[];

export interface StartAnvilOptions {
  /** Unset: a free port, so concurrent test runs on one machine never meet. */
  port?: number;
  chainId?: number;
  /** Seconds between blocks; unset mines a block per transaction (automine). */
  blockTime?: number;
  /** A file anvil loads at start and dumps its state into (periodically and at exit). */
  statePath?: string;
}

export interface AnvilNode {
  rpcUrl: string;
  stop(): Promise<void>;
}

const ANVIL_BIN = join(process.cwd(), 'node_modules', '.bin', 'anvil');
const READY_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;

async function chainIdAt(rpcUrl: string): Promise<number | undefined> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    const body = (await response.json()) as { result?: string };
    return body.result === undefined ? undefined : Number(body.result);
  } catch {
    return undefined;
  }
}

export async function startAnvil({
  port: wanted,
  chainId = 31337,
  blockTime,
  statePath,
}: StartAnvilOptions): Promise<AnvilNode> {
  const port = wanted ?? (await freePort());
  const rpcUrl = `http://127.0.0.1:${port}`;
  // A leftover node on the port would answer our readiness poll and hide that ours failed to bind.
  if ((await chainIdAt(rpcUrl)) !== undefined) throw new Error(`anvil: something already answers on ${rpcUrl}`);

  const args = ['--port', String(port), '--host', '127.0.0.1', '--chain-id', String(chainId), '--silent'];
  // Ten funded accounts to match ANVIL_KEYS; Cancun to match the compiler's evmVersion.
  args.push('--accounts', '10', '--hardfork', 'cancun');
  if (blockTime !== undefined) args.push('--block-time', String(blockTime));
  if (statePath !== undefined) args.push('--state', statePath, '--state-interval', '10');
  const child = spawn(ANVIL_BIN, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let exited = false;
  // 'error' stands in for 'exit' when the binary cannot be spawned at all.
  const exit = new Promise<void>((resolve) => {
    const done = () => {
      exited = true;
      resolve();
    };
    child.once('exit', done);
    child.once('error', (error) => {
      stderr += error.message;
      done();
    });
  });
  // An anvil must never outlive the test process that started it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    process.off('exit', killOnExit);
    if (exited) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exit;
    clearTimeout(timer);
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!exited) {
    if ((await chainIdAt(rpcUrl)) === chainId) return { rpcUrl, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`anvil on ${rpcUrl} did not answer within ${READY_TIMEOUT_MS / 1000}s: ${stderr.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.off('exit', killOnExit);
  throw new Error(`anvil on ${rpcUrl} exited early (code ${child.exitCode}): ${stderr.trim()}`);
}

/** A port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
