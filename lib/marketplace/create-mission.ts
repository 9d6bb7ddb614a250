// POST /api/missions: validate, then insert the OPEN mission (or, without its task on an escrow
// deployment, the AWAITING_FUNDING one) with its attachments and its first
// event in one transaction. An Idempotency-Key (docs/api.md#idempotency) makes a
// retried request answer the mission it already created instead of posting a second one.
import 'server-only';
import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missions, users } from '../db/schema';
import { insertMilestones } from '../missions/milestones';
import { uniqueViolation } from '../db/unique-violation';
import { ApiError } from '../errors';
import { validate } from '../fields';
import type { RequestBody } from '../uploads/request-body';
import { criteriaHash, splitCriteria } from '../missions/criteria';
import { checkProblems } from '../missions/criterion-checks';
import { recordEvent } from '../missions/events';
import { storeFiles } from '../missions/files';
import { fromForm } from '../missions/form-fields';
import { emitCreated, emitToUser } from '../webhooks/outbox';
import { verifyFunding } from '../funding/verify';
import type { MissionJson } from '../board/present';
import { missionColumns } from '../missions/queries';
import { createMissionSchema, type CreateMissionInput } from '../missions/schemas';
import { latestDeadline } from '../missions/fields';
import { getMissionOrThrow } from '../board/views';
import { assertUnfundedRoom, fundingTermsAt } from '../funding/terms';
import { FundingAtOnce } from '../funding/at-once';

const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

export async function createMission(
  db: Db,
  cfg: Config,
  user: { id: string; role: 'CLIENT' | 'AGENT'; walletAddress: string },
  body: RequestBody,
  idempotencyKey: string | null,
  now: Date,
  delegation?: { grantId: string },
): Promise<MissionJson> {
  const input = validate(
    createMissionSchema,
    body.multipart ? fromForm(body.fields as Record<string, string>) : body.fields,
  );
  checkDeadline(input.deadline, now);
  // docs/api.md#checked-criteria: each check is judged before anything is written (a schema compiles,
  // a URL is public and answers without a redirect).
  const criteria = input.criteria ? splitCriteria(input.criteria) : null;
  const problems = criteria?.checks ? await checkProblems(cfg, criteria.checks) : [];
  if (problems.length > 0) throw new ApiError(400, 'Validation failed', problems);
  const directAgentId = input.agent === undefined ? null : await namedAgentOf(db, input.agent, user.id);
  // docs/api.md#post-and-pay: on an escrow deployment a mission without its task waits for one signature.
  const unfunded = Boolean(cfg.chain.escrow) && input.onChainTaskId === undefined;
  if (!unfunded)
    await verifyFunding(
      cfg,
      user.walletAddress,
      input.onChainTaskId,
      input.reward,
      input.deadline,
      input.assignment === 'BOUNTY',
    );
  if (idempotencyKey !== null && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    throw new ApiError(400, 'Validation failed', ['Idempotency-Key: 1–200 visible ASCII characters']);
  }
  const viewer = { kind: 'user', id: user.id, role: user.role } as const;
  const fingerprint = idempotencyKey === null ? null : fingerprintOf(input, body);
  // docs/api.md#standing-allowance: a delegated post may be funded at once from the person's mandate.
  const atOnce = await FundingAtOnce.begin(db, cfg, user, delegation?.grantId, unfunded);
  let id: string;
  try {
    id = await db.transaction(async (tx) => {
      const earlier = idempotencyKey ? await findByIdempotencyKey(tx, user.id, idempotencyKey, now) : undefined;
      if (earlier) {
        atOnce.rolledBack();
        return replayOf(earlier, fingerprint);
      }
      if (unfunded) await assertUnfundedRoom(tx, cfg, user.id, body.files);
      return atOnce.within(tx, input.reward, now, () =>
        insertMission(
          tx,
          cfg,
          user.id,
          { ...input, directAgentId, autoApproveGrantId: input.autoApprove ? (delegation?.grantId ?? null) : null },
          { key: idempotencyKey, fingerprint },
          body,
          now,
          unfunded,
        ),
      );
    });
  } catch (error) {
    atOnce.rolledBack();
    const constraint = uniqueViolation(error);
    if (constraint === 'missions_on_chain_task_idx') {
      await atOnce.giveBack();
      throw new ApiError(400, 'Validation failed', ['onChainTaskId: already linked to another mission']);
    }
    // The same key raced in twice: the other request created it; answer that mission.
    const earlier =
      constraint === 'missions_idempotency_idx'
        ? await findByIdempotencyKey(db, user.id, idempotencyKey!, now)
        : undefined;
    if (!earlier) {
      await atOnce.giveBack();
      throw error;
    }
    id = replayOf(earlier, fingerprint);
  }
  // A replay answers the first response: the mission that key created, as it is now.
  const mission = () => getMissionOrThrow(db, cfg, id, viewer, now);
  if (!unfunded) return mission();
  return atOnce.finish(db, id, mission, now);
}

function checkDeadline(deadline: Date, now: Date): void {
  if (deadline <= now) throw new ApiError(400, 'Validation failed', ['deadline: must be in the future']);
  if (deadline > latestDeadline(now))
    throw new ApiError(400, 'Validation failed', ['deadline: must be at most one year ahead']);
}

/** The request as the key stands for it: validated fields and the attachments' content. */
function fingerprintOf(input: CreateMissionInput, body: RequestBody): string {
  const canonical = JSON.stringify({
    ...input,
    reward: input.reward.toString(),
    milestones: input.milestones?.map((m) => ({ ...m, amount: m.amount.toString() })),
    files: body.files.map((f) => [f.filename, f.sha256]),
  });
  return createHash('sha256').update(canonical).digest('hex');
}

function replayOf(earlier: { id: string; fingerprint: string | null }, fingerprint: string | null): string {
  if (earlier.fingerprint !== fingerprint) {
    throw new ApiError(422, 'Idempotency-Key was already used for a different request');
  }
  return earlier.id;
}

async function findByIdempotencyKey(tx: Db, clientId: string, key: string, now: Date) {
  const mine = and(eq(missions.clientId, clientId), eq(missions.idempotencyKey, key));
  // A key is remembered for 24 hours; after that it is free to mean something new.
  await tx
    .update(missions)
    .set({ idempotencyKey: null })
    .where(and(mine, lt(missions.createdAt, new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS))));
  const [row] = await tx
    .select({ id: missions.id, fingerprint: missions.idempotencyFingerprint })
    .from(missions)
    .where(mine)
    .limit(1);
  return row;
}

async function insertMission(
  tx: Db,
  cfg: Config,
  clientId: string,
  input: CreateMissionInput & { directAgentId: string | null; autoApproveGrantId: string | null },
  idempotency: { key: string | null; fingerprint: string | null },
  body: RequestBody,
  now: Date,
  unfunded: boolean,
): Promise<string> {
  const status = unfunded ? 'AWAITING_FUNDING' : 'OPEN';
  const [mission] = await tx
    .insert(missions)
    .values({
      clientId,
      title: input.title,
      description: input.description,
      category: input.category,
      tags: input.tags,
      reward: input.reward.toString(),
      feeBps: cfg.missions.feeBps,
      deadline: input.deadline,
      onChainTaskId: input.onChainTaskId ?? null,
      escrow: input.onChainTaskId === undefined && !unfunded ? null : (cfg.chain.escrow ?? null),
      status,
      // docs/api.md#post-and-pay: the terms the funding authorization's nonce commits to, fixed now.
      ...(unfunded ? fundingTermsAt(cfg, input.deadline, input.assignment === 'BOUNTY') : {}),
      assignmentMode: input.assignment,
      directAgentId: input.directAgentId,
      winners: input.assignment === 'BOUNTY' ? (input.winners ?? 1) : null,
      split: input.split ?? null,
      // docs/api.md#criteria: the hash is written with the list and, like it, never changes once OPEN.
      ...criteriaColumns(input),
      // docs/api.md#milestones: the agent starts on the first.
      milestoneCount: input.milestones?.length ?? null,
      milestone: input.milestones ? 1 : null,
      idempotencyKey: idempotency.key,
      idempotencyFingerprint: idempotency.fingerprint,
      listedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning(missionColumns);
  if (input.milestones) await insertMilestones(tx, mission!.id, input.milestones);
  const files = await storeFiles(
    tx,
    { missionId: mission!.id, kind: 'ATTACHMENT', assignment: 0, round: 0, uploaderId: clientId },
    body.files,
    now,
  );
  await recordEvent(tx, {
    missionId: mission!.id,
    clientId,
    viewer: { kind: 'user', id: clientId, role: 'CLIENT' },
    action: 'create',
    from: null,
    to: status,
    data: { files },
    now,
  });
  // An unfunded mission is announced when it is funded (lib/funding/relay.ts), never before.
  if (!unfunded) {
    // docs/api.md#direct-missions: off the board, announced to its named agent alone.
    if (input.directAgentId) await emitToUser(tx, 'mission.created', input.directAgentId, mission!, now);
    else await emitCreated(tx, mission!, now);
  }
  return mission!.id;
}

/** docs/api.md#direct-missions: the named agent must be an agent, and not the poster. */
async function namedAgentOf(db: Db, address: string, clientId: string): Promise<string> {
  const [agent] = await db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(eq(users.walletAddress, address))
    .limit(1);
  if (!agent || agent.role !== 'AGENT')
    throw new ApiError(400, 'Validation failed', ['agent: not the wallet of a registered agent']);
  if (agent.id === clientId) throw new ApiError(400, 'Validation failed', ['agent: cannot be the poster']);
  return agent.id;
}

/**
 * docs/api.md#checked-criteria: the texts, their checks and the hash over both; an automatic approval,
 * and the grant it must fit at submit when a delegated token set it (null: the person's own post).
 */
function criteriaColumns(input: CreateMissionInput & { autoApproveGrantId: string | null }) {
  if (!input.criteria) return { criteria: null, criteriaHash: null };
  const { texts, checks } = splitCriteria(input.criteria);
  return {
    criteria: texts,
    criteriaHash: criteriaHash(texts, checks),
    criteriaChecks: checks,
    autoApprove: input.autoApprove ?? null,
    autoApproveGrantId: input.autoApproveGrantId,
  };
}
