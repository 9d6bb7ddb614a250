// The client's award of a JUDGING bounty (docs/api.md#bounties): party, state and window checked before the
// winners are looked up (a stranger learns nothing about who entered), then one transition.
import 'server-only';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { act } from '../actions';
import { precheckTransition, type TransitionGate } from '../apply-transition';
import { findMission } from '../queries';
import type { Viewer } from '../visibility';
import { resolveWinners } from './award';
import type { AwardInput } from './schemas';

export async function awardBounty(
  db: Db,
  cfg: Config,
  missionId: string,
  viewer: Viewer,
  input: AwardInput,
  now: Date,
  gate?: TransitionGate,
) {
  await precheckTransition(db, cfg, 'award', missionId, viewer, now);
  const winners = await resolveWinners(db, (await findMission(db, missionId))!, input);
  return act(db, cfg, 'award', missionId, viewer, { winners, reason: input.reason, ...(gate && { gate }) }, now);
}
