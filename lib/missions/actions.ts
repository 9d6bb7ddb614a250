// The mission endpoints' work, one function per action: read and validate the caller's input,
// run the transition, answer the mission as the caller now sees it.
import 'server-only';
import type { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { ApiError } from '../errors';
import { validate } from '../fields';
import type { RequestBody } from '../uploads/request-body';
import { applyTransition, type ActionChoice, precheckTransition, type TransitionGate } from './apply-transition';
import type { ActionInput } from './changes';
import { settleMission } from '../settlements/sweep';
import { sendMissionFeedback } from '../erc8004/send';
import { reactToSettlement } from './reclaimed';
import { unknownCriteria } from './criteria';
import { fromForm } from './form-fields';
import { verifyTopUp } from './funding';
import type { MissionJson } from './present';
import { bumpSchema, contestSchema, type resolveSchema, submitSchema } from './schemas';
import type { Action } from './transitions';
import { findMission } from './queries';
import { resolveWinners } from './bounties/award';
import { getMissionOrThrow } from './views';
import { isAssignee, OPERATOR, type Viewer } from './visibility';

/** Runs the transition, sends what it settles, and answers the mission as the caller now sees it. */
export async function act(
  db: Db,
  cfg: Config,
  choice: ActionChoice,
  id: string,
  viewer: Viewer,
  input: ActionInput & { files?: RequestBody['files']; gate?: TransitionGate },
  now: Date,
): Promise<MissionJson> {
  await applyTransition(db, cfg, choice, id, viewer, input, now);
  // Release or refund rows this transition wrote go out now; the sweep retries what fails.
  await settleMission(db, cfg, id, reactToSettlement);
  // Then the ERC-8004 feedback it decided, once its payout is mined; never fails the answer
  // (docs/api.md#erc-8004-feedback).
  await sendMissionFeedback(db, cfg, id);
  return getMissionOrThrow(db, cfg, id, viewer, now);
}

const fieldsOf = (body: RequestBody) =>
  body.multipart ? fromForm(body.fields as Record<string, string>) : body.fields;

/** Accept, approve and reopen take no input. */
export const simpleAction = (
  db: Db,
  cfg: Config,
  action: Extract<Action, 'accept' | 'approve' | 'reopen'>,
  id: string,
  viewer: Viewer,
  now: Date,
  gate?: TransitionGate,
) => act(db, cfg, action, id, viewer, gate ? { gate } : {}, now);

// One URL, two rows of the table: the owner cancels, the assigned agent withdraws.
const cancelOrWithdraw: ActionChoice = (m, viewer) => (isAssignee(m, viewer) ? 'withdraw' : 'cancel');

export const cancelMission = (db: Db, cfg: Config, id: string, viewer: Viewer, now: Date) =>
  act(db, cfg, cancelOrWithdraw, id, viewer, {}, now);

// One URL, two rows: the owner contests a submission; an entrant contests a bounty's award (docs/api.md#bounties).
const contestChoice: ActionChoice = (m) => (m.assignmentMode === 'BOUNTY' ? 'contestAward' : 'contest');

/** Checks the caller may act before the (possibly large) body is read; see precheckTransition. */
export const precheck = (
  db: Db,
  cfg: Config,
  action: 'submit' | 'contest' | 'bump',
  id: string,
  viewer: Viewer,
  now: Date,
) => precheckTransition(db, cfg, action === 'contest' ? contestChoice : action, id, viewer, now);

export async function submitMission(db: Db, cfg: Config, id: string, viewer: Viewer, body: RequestBody, now: Date) {
  const { note, selfCheck } = validate(submitSchema, fieldsOf(body));
  if (note === '' && body.files.length === 0)
    throw new ApiError(400, 'Validation failed', ['note: a submission needs a note or files']);
  if (selfCheck) await checkCriteria(db, id, 'selfCheck', selfCheck);
  return act(db, cfg, 'submit', id, viewer, { note, selfCheck, files: body.files }, now);
}

export async function contestMission(db: Db, cfg: Config, id: string, viewer: Viewer, body: RequestBody, now: Date) {
  const { reason, unmet } = validate(contestSchema, fieldsOf(body));
  const mission = await findMission(db, id);
  // docs/api.md#criteria: a contest of a mission with criteria names the unmet ones (a bounty's award
  // contest is about the award, not the work: it names none).
  if (mission && mission.assignmentMode !== 'BOUNTY') {
    if (mission.criteria && !unmet)
      throw new ApiError(400, 'Validation failed', ['unmet: name at least one unmet criterion']);
    const unknown = unknownCriteria('unmet', unmet ?? [], mission.criteria);
    if (unknown.length > 0) throw new ApiError(400, 'Validation failed', unknown);
  } else if (unmet) {
    throw new ApiError(400, 'Validation failed', ["unmet: a bounty's award is contested with a reason only"]);
  }
  return act(db, cfg, contestChoice, id, viewer, { reason, unmet, files: body.files }, now);
}

/**
 * docs/api.md#criteria: `items` name criteria the mission has (they are frozen once OPEN: an unlocked read will do).
 */
async function checkCriteria(db: Db, id: string, field: string, items: readonly { criterion: number }[]) {
  const mission = await findMission(db, id);
  if (!mission) return; // the transition answers 404
  const unknown = unknownCriteria(field, items, mission.criteria);
  if (unknown.length > 0) throw new ApiError(400, 'Validation failed', unknown);
}

/** `input`: the JSON body, `{}` when none was sent (docs/api.md#uploads: bump takes JSON only). */
export async function bumpMission(db: Db, cfg: Config, id: string, viewer: Viewer, input: unknown, now: Date) {
  const { reward } = validate(bumpSchema, input);
  if (reward !== undefined && cfg.chain.escrow) {
    const mission = await findMission(db, id);
    if (mission) await verifyTopUp(cfg, mission, reward);
  }
  return act(db, cfg, 'bump', id, viewer, { reward }, now);
}

/** The operator resolves a DISPUTED mission one way or the other; a bounty completes with the operator's award. */
export async function resolveMission(
  db: Db,
  cfg: Config,
  id: string,
  { outcome, note, winners, reason, verdicts }: z.infer<typeof resolveSchema>,
  now: Date,
) {
  const mission = await findMission(db, id);
  const bounty = mission?.assignmentMode === 'BOUNTY';
  if (!bounty && (winners !== undefined || reason !== undefined))
    throw new ApiError(400, 'Validation failed', ['winners: only a bounty is resolved with winners']);
  // docs/api.md#criteria: verdicts name the mission's own criteria.
  const unknown = mission && verdicts ? unknownCriteria('verdicts', verdicts, mission.criteria) : [];
  if (unknown.length > 0) throw new ApiError(400, 'Validation failed', unknown);
  if (outcome === 'CANCELLED') return act(db, cfg, 'resolveCancel', id, OPERATOR, { note, verdicts }, now);
  if (!bounty) return act(db, cfg, 'resolveComplete', id, OPERATOR, { note, verdicts }, now);
  const awarded = await resolveWinners(db, mission, { winners: winners ?? [], reason });
  return act(db, cfg, 'resolveAward', id, OPERATOR, { note, winners: awarded, reason, verdicts }, now);
}
