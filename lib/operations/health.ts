// Health of the dependencies (docs/api.md#health): the service is down when the database or the KV is, and
// `degraded` (still serving) while settlements wait for the operator (docs/api.md#settlements).
import 'server-only';
import { getDb, pingDb } from '../db/client';
import { countFailedSettlements } from '../settlements';
import { getChainClients } from '../chain/clients';
import { z } from 'zod';
import type { Kv } from '../kv';

const probeResult = z.enum(['ok', 'down']);
export const healthReportSchema = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  db: probeResult,
  kv: probeResult,
  /** `disabled` when no RPC_URL is configured; a chain outage alone does not make the service unhealthy. */
  chain: z.enum(['ok', 'down', 'disabled']),
  /** Settlements that gave up after SETTLEMENT_MAX_ATTEMPTS: each needs the operator's retry. */
  settlements: z.object({ failed: z.number().int() }).optional(),
});

type State = z.infer<typeof probeResult>;
const state = (probe: Promise<unknown>): Promise<State> =>
  probe.then(
    () => 'ok',
    () => 'down',
  );

export async function checkHealth(kv: Kv) {
  const chain = getChainClients();
  const [db, kvState, chainState, failed] = await Promise.all([
    state(pingDb()),
    state(kv.ping()),
    chain ? state(chain.publicClient.getChainId()) : Promise.resolve('disabled' as const),
    getDb().then(countFailedSettlements, () => undefined),
  ]);
  const healthy = db === 'ok' && kvState === 'ok';
  const status = !healthy ? 'unavailable' : failed ? 'degraded' : 'ok';
  const report: z.infer<typeof healthReportSchema> = {
    status,
    db,
    kv: kvState,
    chain: chainState,
    ...(failed !== undefined && { settlements: { failed } }),
  };
  return { healthy, report };
}
