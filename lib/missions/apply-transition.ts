// Runs one transition of the table: lock the row, apply what time did to it, ask `decide`, then write
// the state change (compare-and-set on the expected state and party), its side effects (effects.ts), its
// event and its webhook (the row's `webhook`) in the same transaction — all of it or none of it. What
// it wrote to the outboxes is sent by the request's one drain (docs/api.md#one-door).
import 'server-only';
import { and, eq, or, type SQL } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missions } from '../db/schema';
import { emitTransition } from './transition-webhooks';
import { ApiError } from '../errors';
import { planChanges, type TransitionRequest } from './changes';
import { recordEvent } from './events';
import { runEffects } from './effects';
import { enqueueFeedback } from '../erc8004/enqueue';
import { findMission, lockMission, type Mission, missionColumns } from './queries';
import { assertCapacity } from './capacity';
import { withdrawApprovalConfirmations } from './confirmation-withdrawal';
import {
  type Action,
  decide,
  dueAction,
  TRANSITIONS,
  type Party,
  type Transition,
  targetOf,
  webhookOf,
} from './transitions';
import { findEntry } from './award';
import { SYSTEM, type Viewer } from './visibility';

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
  if (party === 'participant') return or(eq(missions.clientId, viewer.id), eq(missions.agentId, viewer.id));
  if (party === 'named') return eq(missions.directAgentId, viewer.id);
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
  const transition: Transition = TRANSITIONS[action];
  const to = targetOf(transition, mission, cfg.missions);
  const changes = planChanges(transition.effects, mission, viewer, input, now, cfg.missions);
  const [updated] = await tx
    .update(missions)
    .set({ ...changes, status: to, updatedAt: now })
    .where(
      and(eq(missions.id, mission.id), eq(missions.status, mission.status), partyCondition(transition.party, viewer)),
    )
    .returning(missionColumns);
  if (!updated) throw new ApiError(409, 'The mission changed meanwhile; try again');
  await withdrawApprovalConfirmations(tx, mission, to, action, now);
  const data = await runEffects(transition.effects, { tx, before: mission, after: updated, viewer, input, now });
  // docs/api.md#erc-8004-feedback: the feedback a settlement gives a linked agent, decided with it.
  await enqueueFeedback(tx, cfg, action, updated, now);
  if (transition.party === 'operator' && input.note) data.note = input.note;
  if (transition.party === 'operator' && input.verdicts) data.verdicts = input.verdicts;
  await recordEvent(tx, {
    missionId: mission.id,
    clientId: mission.clientId,
    viewer,
    action: transition.event ?? action,
    from: mission.status,
    to,
    data,
    now,
  });
  await emitTransition(tx, webhookOf(transition, to), mission, updated, now, data);
  return updated;
}

/**
 * One row of the table written inside a caller's transaction on a row it holds: a funded order's
 * `acceptOrder` (docs/api.md#offerings), decided by the table like any other.
 */
export async function writeTransition(
  tx: Db,
  cfg: Config,
  action: Action,
  mission: Mission,
  viewer: Viewer,
  input: TransitionRequest,
  now: Date,
): Promise<Mission> {
  const decision = decide(action, { ...mission, entered: false }, viewer, now, cfg.missions);
  if (!decision.ok) throw refusalError(decision);
  return write(tx, cfg, action, mission, viewer, input, now);
}
