// The mission endpoints' work, one function per action: read and validate the caller's input,
// run the transition, answer the mission as the caller now sees it.
import 'server-only';
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { ApiError } from '../errors';
import { validate } from '../fields';
import type { RequestBody } from '../uploads/request-body';
import { applyTransition, type ActionChoice, precheckTransition } from '../missions/apply-transition';
import type { ActionInput, TransitionGate } from '../missions/changes';
import { type CriterionCheck, unknownCriteria } from '../missions/criteria';
import { runChecks } from '../missions/criterion-checks';
import { fromForm } from '../missions/form-fields';
import { verifyTopUp } from '../funding/verify';
import type { MissionJson } from '../board/present';
import { bumpSchema, contestSchema, type resolveSchema, submitSchema } from '../missions/schemas';
import type { Action } from '../missions/transitions';
import { findMission } from '../missions/queries';
import { resolveWinners } from '../bounties/judging';
import { getMissionOrThrow } from '../board/views';
import { isAssignee, OPERATOR, type Viewer } from '../missions/visibility';
import { settlesInPart } from './settles-in-part';

/**
 * Runs the transition and answers the mission as the caller now sees it. What it settles leaves by the
 * route's one drain (docs/api.md#one-door), never from here.
 */
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
  return getMissionOrThrow(db, cfg, id, viewer, now);
}

const fieldsOf = (body: RequestBody) =>
  body.multipart ? fromForm(body.fields as Record<string, string>) : body.fields;

// docs/api.md#milestones: a milestone mission's submit, approve, contest and resolve are its milestone at hand's.
const byMilestones =
  (whole: Action, part: Action): ActionChoice =>
  (m) =>
    m.milestoneCount ? part : whole;
const submitChoice = byMilestones('submit', 'submitMilestone');
const approveChoice = byMilestones('approve', 'approveMilestone');
const resolveChoice = byMilestones('resolveComplete', 'resolveMilestone');

/** Accept and reopen take no input; approve names the milestone on a milestone mission (docs/api.md#milestones). */
export const simpleAction = (
  db: Db,
  cfg: Config,
  action: Extract<Action, 'accept' | 'approve' | 'reopen'>,
  id: string,
  viewer: Viewer,
  now: Date,
  gate?: TransitionGate,
  milestone?: number,
) =>
  act(
    db,
    cfg,
    action === 'approve' ? approveChoice : action,
    id,
    viewer,
    { ...(gate ? { gate } : {}), ...(milestone !== undefined ? { milestone } : {}) },
    now,
  );

// One URL, two rows of the table: the owner cancels, the assigned agent withdraws.
const cancelOrWithdraw: ActionChoice = (m, viewer) => (isAssignee(m, viewer) ? 'withdraw' : 'cancel');

export const cancelMission = (db: Db, cfg: Config, id: string, viewer: Viewer, now: Date) =>
  act(db, cfg, cancelOrWithdraw, id, viewer, {}, now);

// One URL, two rows: the owner contests a submission; an entrant contests a bounty's award (docs/api.md#bounties).
const contestChoice: ActionChoice = (m) =>
  m.assignmentMode === 'BOUNTY' ? 'contestAward' : m.milestoneCount ? 'contestMilestone' : 'contest';

/** Checks the caller may act before the (possibly large) body is read; see precheckTransition. */
export const precheck = (
  db: Db,
  cfg: Config,
  action: 'submit' | 'contest' | 'bump',
  id: string,
  viewer: Viewer,
  now: Date,
) =>
  precheckTransition(
    db,
    cfg,
    action === 'contest' ? contestChoice : action === 'submit' ? submitChoice : action,
    id,
    viewer,
    now,
  );

export async function submitMission(db: Db, cfg: Config, id: string, viewer: Viewer, body: RequestBody, now: Date) {
  const { milestone, note, selfCheck } = validate(submitSchema, fieldsOf(body));
  if (note === '' && body.files.length === 0)
    throw new ApiError(400, 'Validation failed', ['note: a submission needs a note or files']);
  if (selfCheck) await checkCriteria(db, id, 'selfCheck', selfCheck);
  const checks = await checksOf(db, cfg, id, body.files, now);
  return act(db, cfg, submitChoice, id, viewer, { milestone, note, selfCheck, checks, files: body.files }, now);
}

/**
 * docs/api.md#checked-criteria: the mission's checks run on the files being delivered, before the
 * transition (an httpGet may take its 5 s outside any transaction); undefined when it has none.
 */
async function checksOf(db: Db, cfg: Config, id: string, files: RequestBody['files'], now: Date) {
  const mission = await findMission(db, id);
  if (!mission?.criteriaChecks) return undefined;
  const delivered = files.map((file) => ({ ...file, read: () => readFile(file.path) }));
  return runChecks(cfg, mission.criteriaChecks as (CriterionCheck | null)[], delivered, now);
}

export async function contestMission(db: Db, cfg: Config, id: string, viewer: Viewer, body: RequestBody, now: Date) {
  const { milestone, reason, unmet } = validate(contestSchema, fieldsOf(body));
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
  return act(db, cfg, contestChoice, id, viewer, { milestone, reason, unmet, files: body.files }, now);
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
  const mission = await findMission(db, id);
  // Past OPEN a bump only raises the reward (to a topped-up task's amount): there is no board to go up on.
  const owns = mission && viewer.kind === 'user' && mission.clientId === viewer.id;
  if (reward === undefined && owns && (mission.status === 'SUBMITTED' || mission.status === 'JUDGING'))
    throw new ApiError(409, `The mission is ${mission.status}: a bump here only raises the reward; send reward`);
  if (reward !== undefined && cfg.chain.escrow && mission) await verifyTopUp(cfg, mission, reward);
  return act(db, cfg, 'bump', id, viewer, { reward }, now);
}

/**
 * docs/api.md#split-verdicts: the operator gives the agent `agentAmount` (1 to reward − 1; the whole is
 * COMPLETED, nothing is CANCELLED) and the client the rest, sent by escrow v5's settle.
 */
async function resolveSplit(
  db: Db,
  cfg: Config,
  id: string,
  mission: Awaited<ReturnType<typeof findMission>>,
  { note, verdicts, agentAmount }: Pick<z.infer<typeof resolveSchema>, 'note' | 'verdicts' | 'agentAmount'>,
  now: Date,
) {
  if (agentAmount === undefined)
    throw new ApiError(400, 'Validation failed', ['agentAmount: a SPLIT names the agent’s part']);
  if (mission && mission.assignmentMode === 'BOUNTY')
    throw new ApiError(400, 'Validation failed', ['outcome: a bounty is resolved with its winners, not split']);
  if (mission && (agentAmount <= 0n || agentAmount >= BigInt(mission.reward)))
    throw new ApiError(400, 'Validation failed', [
      `agentAmount: from 1 to ${BigInt(mission.reward) - 1n}; resolve COMPLETED or CANCELLED for all or nothing`,
    ]);
  if (mission && !settlesInPart(cfg, mission))
    throw new ApiError(409, "This mission's escrow task is on an escrow from before v5, which cannot settle in part");
  return act(
    db,
    cfg,
    'resolveSplit',
    id,
    OPERATOR,
    { note, verdicts, settlement: { agentAmount, by: 'operator' } },
    now,
  );
}

/** The operator resolves a DISPUTED mission one way or the other; a bounty completes with the operator's award. */
export async function resolveMission(
  db: Db,
  cfg: Config,
  id: string,
  { outcome, note, winners, reason, verdicts, agentAmount }: z.infer<typeof resolveSchema>,
  now: Date,
) {
  const mission = await findMission(db, id);
  const bounty = mission?.assignmentMode === 'BOUNTY';
  if (outcome !== 'SPLIT' && agentAmount !== undefined)
    throw new ApiError(400, 'Validation failed', ['agentAmount: only a SPLIT outcome names the agent’s part']);
  if (!bounty && (winners !== undefined || reason !== undefined))
    throw new ApiError(400, 'Validation failed', ['winners: only a bounty is resolved with winners']);
  // docs/api.md#criteria: verdicts name the mission's own criteria.
  const unknown = mission && verdicts ? unknownCriteria('verdicts', verdicts, mission.criteria) : [];
  if (unknown.length > 0) throw new ApiError(400, 'Validation failed', unknown);
  if (outcome === 'CANCELLED') return act(db, cfg, 'resolveCancel', id, OPERATOR, { note, verdicts }, now);
  if (outcome === 'SPLIT') return resolveSplit(db, cfg, id, mission, { note, verdicts, agentAmount }, now);
  if (!bounty) return act(db, cfg, resolveChoice, id, OPERATOR, { note, verdicts }, now);
  const awarded = await resolveWinners(db, mission, { winners: winners ?? [], reason });
  return act(db, cfg, 'resolveAward', id, OPERATOR, { note, winners: awarded, reason, verdicts }, now);
}
