// Runs one transition of the table: lock the row, apply what time did to it, ask `decide`, then write
// the state change (compare-and-set on the expected state and party), its side effects (files,
// contest, ledger) and its event in the same transaction — all of it or none of it.
import 'server-only';
import { and, eq, type SQL } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missionContests, missions } from '../db/schema';
import { emitTransition } from '../webhooks/transition-events';
import { ApiError } from '../errors';
import type { SpooledFile } from '../uploads';
import { type ActionInput, planChanges } from './changes';
import { recordEvent } from './events';
import { storeFiles } from './files';
import * as ledger from './ledger';
import { enqueueFeedback } from '../erc8004/enqueue';
import { findMission, lockMission, type Mission, missionColumns } from './queries';
import { assertCapacity } from './capacity';
import { type Action, decide, dueAction, TRANSITIONS, type Party, type Transition } from './transitions';
import { findEntry, recordAward, recordAwardContest } from './bounties/award';
import { SYSTEM, type Viewer } from './visibility';

export interface TransitionRequest extends ActionInput {
  files?: SpooledFile[];
  /**
   * Runs inside the transition's transaction once the transition is allowed, before it is written: a
   * delegated release counted against its grant, or a confirmation marked used (docs/api.md#confirmations).
   * It throws to stop the transition; nothing of it is then written.
   */
  gate?: TransitionGate;
}

export type TransitionGate = (tx: Db, mission: Mission, input: TransitionRequest) => Promise<void>;

/** An action, or a rule picking one from the locked mission (cancel: the owner's or the agent's row). */
export type ActionChoice = Action | ((m: Mission, viewer: Viewer) => Action);

export async function applyTransition(
  db: Db,
  cfg: Config,
  choice: ActionChoice,
  missionId: string,
  viewer: Viewer,
  input: TransitionRequest,
  now: Date,
): Promise<void> {
  const refusal = await db.transaction(async (tx) => {
    let mission = await lockMission(tx, missionId);
    if (!mission) return { status: 404, message: 'Mission not found' };
    const action = typeof choice === 'function' ? choice(mission, viewer) : choice;
    // Time goes first: past its review window a SUBMITTED mission is COMPLETED, past its deadline a
    // bounty is judged (and so on), whatever is asked next. That is kept even when the action is refused.
    const due = dueAction(mission, now);
    if (due && due !== action) mission = await write(tx, cfg, due, mission, SYSTEM, {}, now);
    const decision = decide(action, await withEntrant(tx, mission, viewer), viewer, now, cfg.missions);
    if (!decision.ok) return decision;
    if (decision.transition.effects.includes('assign')) {
      const agentId = input.assigneeId ?? (viewer.kind === 'user' ? viewer.id : undefined);
      if (agentId) await assertCapacity(tx, agentId, cfg.missions.maxActive);
    }
    if (input.gate) await input.gate(tx, mission, input);
    await write(tx, cfg, action, mission, viewer, input, now);
    return undefined;
  });
  if (refusal) throw refusalError(refusal);
}

function refusalError(refusal: { status: number; message: string; retryAfter?: number }): ApiError {
  if (refusal.retryAfter === undefined) return new ApiError(refusal.status, refusal.message);
  // A rate rule answers like the rate limiter does (docs/api.md#limits).
  const reset = String(refusal.retryAfter);
  return new ApiError(429, refusal.message, undefined, {
    'Retry-After': reset,
    'RateLimit-Limit': '1',
    'RateLimit-Remaining': '0',
    'RateLimit-Reset': reset,
  });
}

/**
 * The same decision on an unlocked read, before an upload is read: a caller who could never
 * succeed is refused without making the server spool up to 100 MB first. The locked run decides again.
 */
export async function precheckTransition(
  db: Db,
  cfg: Config,
  choice: ActionChoice,
  missionId: string,
  viewer: Viewer,
  now: Date,
) {
  let mission = await findMission(db, missionId);
  if (!mission) throw new ApiError(404, 'Mission not found');
  if (dueAction(mission, now)) {
    // Time goes first here too, so the caller is judged against the state it will meet.
    await db.transaction(async (tx) => {
      const locked = await lockMission(tx, missionId);
      const due = locked && dueAction(locked, now);
      if (due) await write(tx, cfg, due, locked, SYSTEM, {}, now);
    });
    mission = (await findMission(db, missionId))!;
  }
  const action = typeof choice === 'function' ? choice(mission, viewer) : choice;
  const decision = decide(action, await withEntrant(db, mission, viewer), viewer, now, cfg.missions);
  if (!decision.ok) throw refusalError(decision);
}

/** The mission with whether the viewer entered it, for a bounty (the `entrant` party, its visibility). */
async function withEntrant(db: Db, mission: Mission, viewer: Viewer): Promise<Mission & { entered?: boolean }> {
  if (mission.assignmentMode !== 'BOUNTY' || viewer.kind !== 'user') return mission;
  return { ...mission, entered: (await findEntry(db, mission.id, viewer.id)) !== undefined };
}

// The party in the WHERE clause as well: the write cannot land for anyone else, lock or not.
function partyCondition(party: Party, viewer: Viewer): SQL | undefined {
  if (viewer.kind !== 'user') return undefined;
  if (party === 'owner') return eq(missions.clientId, viewer.id);
  if (party === 'assignee') return eq(missions.agentId, viewer.id);
  return undefined;
}

async function write(
  tx: Db,
  cfg: Config,
  action: Action,
  mission: Mission,
  viewer: Viewer,
  input: TransitionRequest,
  now: Date,
): Promise<Mission> {
  const transition = TRANSITIONS[action];
  const to = transition.to(mission, cfg.missions);
  const changes = planChanges(transition.effects, mission, viewer, input, now, cfg.missions);
  const [updated] = await tx
    .update(missions)
    .set({ ...changes, status: to, updatedAt: now })
    .where(
      and(eq(missions.id, mission.id), eq(missions.status, mission.status), partyCondition(transition.party, viewer)),
    )
    .returning(missionColumns);
  if (!updated) throw new ApiError(409, 'The mission changed meanwhile; try again');
  const data: Record<string, unknown> = {};
  for (const effect of transition.effects) {
    if (effect === 'recordSubmission') {
      data.round = updated.submissionCount;
      data.files = await storeFiles(
        tx,
        owner(updated, 'DELIVERABLE', updated.submissionCount, viewer),
        input.files ?? [],
        now,
      );
      if (input.selfCheck) data.selfCheck = input.selfCheck;
    } else if (effect === 'recordContest') {
      data.round = updated.contestCount;
      await tx.insert(missionContests).values({
        missionId: updated.id,
        assignment: updated.assignment,
        round: updated.contestCount,
        reason: input.reason ?? '',
        unmet: input.unmet ?? null,
        createdAt: now,
      });
      if (input.unmet) data.unmet = input.unmet;
      data.files = await storeFiles(
        tx,
        owner(updated, 'EVIDENCE', updated.contestCount, viewer),
        input.files ?? [],
        now,
      );
    } else if (effect === 'release') {
      data.payout = await ledger.release(tx, updated, now);
    } else if (effect === 'recordAward') {
      data.award = await recordAward(tx, updated, input);
    } else if (effect === 'recordAwardContest') {
      if (viewer.kind !== 'user') throw new Error('an award is contested by an entrant');
      await recordAwardContest(tx, updated.id, viewer.id, input.reason ?? '', now);
      data.reason = input.reason;
    } else if (effect === 'releaseSplit') {
      data.payout = await ledger.releaseSplit(tx, updated, now);
    } else if (effect === 'refund') {
      await ledger.refund(tx, updated);
    } else if (effect === 'reclaim') {
      await ledger.reclaim(tx, updated);
    } else if (effect === 'bump' && updated.reward !== mission.reward) {
      await ledger.topUp(tx, updated, BigInt(mission.reward), BigInt(updated.reward));
      data.reward = { from: mission.reward, to: updated.reward };
    } else if (effect === 'unassign') {
      data.agentId = mission.agentId;
    } else if (effect === 'assign') {
      // Who got the mission: the caller on accept, the owner's choice on assign (docs/api.md#applications).
      data.agentId = updated.agentId;
    }
  }
  // docs/api.md#erc-8004-feedback: the feedback a settlement gives a linked agent, decided with it.
  await enqueueFeedback(tx, cfg, action, updated, now);
  if (transition.party === 'operator' && input.note) data.note = input.note;
  if (transition.party === 'operator' && input.verdicts) data.verdicts = input.verdicts;
  const event = (transition as Transition).event ?? action;
  await recordEvent(tx, {
    missionId: mission.id,
    clientId: mission.clientId,
    viewer,
    action: event,
    from: mission.status,
    to,
    data,
    now,
  });
  await emitTransition(tx, action, to, mission, updated, now, data);
  return updated;
}

function owner(m: Mission, kind: 'DELIVERABLE' | 'EVIDENCE', round: number, viewer: Viewer) {
  if (viewer.kind !== 'user') throw new Error('files come from users');
  return { missionId: m.id, kind, assignment: m.assignment, round, uploaderId: viewer.id };
}
