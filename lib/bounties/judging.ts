// The client's award of a JUDGING bounty (docs/api.md#bounties): party, state and window checked before the
// winners are looked up (a stranger learns nothing about who entered), then one transition.
import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { bountyEntries, users } from '../db/schema';
import { ApiError } from '../errors';
import { getMissionOrThrow } from '../board/views';
import { applyTransition, precheckTransition } from '../missions/apply-transition';
import type { TransitionGate } from '../missions/changes';
import { findMission, type Mission } from '../missions/queries';
import type { Viewer } from '../missions/visibility';
import type { AwardInput } from './schemas';

/**
 * The winners as entrants, in place order: at most the bounty's places, each once, each one who
 * entered; fewer than the places need a reason (the client must say why it keeps a share).
 */
export async function resolveWinners(db: Db, mission: Pick<Mission, 'id' | 'winners'>, input: AwardInput) {
  const places = mission.winners ?? 1;
  const problems: string[] = [];
  if (input.winners.length > places) problems.push(`winners: at most ${places}, the bounty's places`);
  if (new Set(input.winners).size !== input.winners.length) problems.push('winners: each entrant at most once');
  if (input.winners.length < places && !input.reason)
    problems.push(`reason: required when fewer than ${places} places are awarded`);
  const rows =
    input.winners.length === 0
      ? []
      : await db
          .select({ agentId: bountyEntries.agentId, address: users.walletAddress })
          .from(bountyEntries)
          .innerJoin(users, eq(users.id, bountyEntries.agentId))
          .where(and(eq(bountyEntries.missionId, mission.id), inArray(users.walletAddress, input.winners)));
  const byAddress = new Map(rows.map((row) => [row.address, row]));
  input.winners.forEach((address, i) => {
    if (!byAddress.has(address)) problems.push(`winners.${i}: ${address} did not enter this bounty`);
  });
  if (problems.length > 0) throw new ApiError(400, 'Validation failed', problems);
  return input.winners.map((address) => byAddress.get(address)!);
}

/** The award as one transition, answered as the client now sees the mission. */
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
  const change = { winners, reason: input.reason, ...(gate && { gate }) };
  await applyTransition(db, cfg, 'award', missionId, viewer, change, now);
  return getMissionOrThrow(db, cfg, missionId, viewer, now);
}
