// Ports of the per-worker anvil nodes started by the global setup.
export const ANVIL_BASE_PORT = 18545;

export function workerRpcUrl(): string {
  return `http://127.0.0.1:${ANVIL_BASE_PORT + Number(process.env.VITEST_POOL_ID ?? '0')}`;
}
