// Health of the dependencies (API.md §9): the service is down when the database or the KV is.
import 'server-only';
import { pingDb } from '../db/client';
import { getChainClients } from '../chain/clients';
import { z } from 'zod';
import type { Kv } from '../kv';

const probeResult = z.enum(['ok', 'down']);
export const healthReportSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  db: probeResult,
  kv: probeResult,
  /** `disabled` when no RPC_URL is configured; a chain outage alone does not make the service unhealthy. */
  chain: z.enum(['ok', 'down', 'disabled']),
});

type State = z.infer<typeof probeResult>;
const state = (probe: Promise<unknown>): Promise<State> =>
  probe.then(
    () => 'ok',
    () => 'down',
  );

export async function checkHealth(kv: Kv) {
  const chain = getChainClients();
  const [db, kvState, chainState] = await Promise.all([
    state(pingDb()),
    state(kv.ping()),
    chain ? state(chain.publicClient.getChainId()) : Promise.resolve('disabled' as const),
  ]);
  const healthy = db === 'ok' && kvState === 'ok';
  const report: z.infer<typeof healthReportSchema> = { status: healthy ? 'ok' : 'unavailable', db, kv: kvState, chain: chainState };
  return { healthy, report };
}
