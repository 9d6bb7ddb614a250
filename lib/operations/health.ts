// Health of the dependencies (API.md §9): the service is down when the database or the KV is.
import 'server-only';
import { pingDb } from '../db/client';
import { getChainClients } from '../chain/clients';
import type { Kv } from '../kv';

type State = 'ok' | 'down';
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
  return { healthy, report: { status: healthy ? 'ok' : 'unavailable', db, kv: kvState, chain: chainState } };
}
