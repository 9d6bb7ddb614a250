// Whether a mission's escrow task can be settled in part (docs/api.md#settlement-offers): only on escrow v5,
// or with no task at all (bookkeeping). Apart from the offers, so the mission actions read it too.
import type { Config } from '../config';
import type { Mission } from '../missions/queries';

export function settlesInPart(cfg: Config, mission: Pick<Mission, 'onChainTaskId' | 'escrow'>): boolean {
  if (mission.onChainTaskId === null) return true;
  if (mission.escrow === null) return false; // funded before v3: on the v2 escrow
  const older = [cfg.chain.escrowV2, cfg.chain.escrowV3, cfg.chain.escrowV4].filter(Boolean);
  return !older.includes(mission.escrow.toLowerCase() as `0x${string}`);
}
