// This worker's anvil, started by the global setup on a free port (VITEST_POOL_ID picks the worker's).
import { inject } from 'vitest';

export function workerRpcUrl(): string {
  const urls = inject('rpcUrls');
  return urls[Number(process.env.VITEST_POOL_ID ?? '0') % urls.length]!;
}
