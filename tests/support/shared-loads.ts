// Counting the chain reads behind concurrent cache misses (docs/security.md#chain-reads): an RPC
// proxy holds every read of one contract until each of `n` concurrent requests has either sent its
// own read or joined one in flight (taskmarket_shared_loads_total, scraped from /api/metrics), then
// lets them through, and answers how many reads reached the chain.
import { GET as metricsGet } from '@/app/api/metrics/route';
import { call } from './http';
import { setEnv } from './environment';
import { workerRpcUrl } from './ports';
import { startRpcProxy } from './rpc-proxy';

const TOKEN = `metrics-${'fedcba9876543210'.repeat(2)}`;

async function sharedLoads(cache: string): Promise<number> {
  const scraped = await call(metricsGet, { path: '/api/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  const line = new RegExp(`^taskmarket_shared_loads_total\\{cache="${cache}"\\} (\\d+)`, 'm').exec(scraped.body);
  return Number(line?.[1] ?? 0);
}

export async function chainReadsOf<T>(
  cache: string,
  contract: string,
  n: number,
  request: () => Promise<T>,
): Promise<{ reads: number; answers: T[] }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reads = 0;
  const proxy = await startRpcProxy(workerRpcUrl(), (method, params) => {
    const to = (params[0] as { to?: string } | undefined)?.to?.toLowerCase();
    if (method !== 'eth_call' || to !== contract.toLowerCase()) return undefined;
    reads++;
    return { after: held };
  });
  const rpc = process.env.RPC_URL;
  setEnv({ RPC_URL: proxy.url, METRICS_TOKEN: TOKEN });
  try {
    const before = await sharedLoads(cache);
    const answers = Promise.all(Array.from({ length: n }, request));
    // Each request either reached the chain or waits on a read that did; then the reads answer.
    while (reads + (await sharedLoads(cache)) - before < n) await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    return { reads, answers: await answers };
  } finally {
    release();
    setEnv({ RPC_URL: rpc, METRICS_TOKEN: undefined });
    await proxy.close();
  }
}
