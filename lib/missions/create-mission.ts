// POST /api/missions: validate, then insert the OPEN mission (or, without its task on an escrow
// deployment, the AWAITING_FUNDING one) with its attachments, its funding (ledger) and its first
// event in one transaction. An Idempotency-Key (docs/api.md#idempotency) makes a
// retried request answer the mission it already created instead of posting a second one.
import 'server-only';
import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missions } from '../db/schema';
import { uniqueViolation } from '../db/unique-violation';
import { ApiError } from '../errors';
import { validate } from '../fields';
import type { RequestBody } from '../uploads/request-body';
import { criteriaHash } from './criteria';
import { recordEvent } from './events';
import { storeFiles } from './files';
import { fromForm } from './form-fields';
import { emitCreated } from '../webhooks/outbox';
import { verifyFunding } from './funding';
import * as ledger from './ledger';
import type { MissionJson } from './present';
import { missionColumns } from './queries';
import { createMissionSchema, type CreateMissionInput } from './schemas';
import { latestDeadline } from './fields';
import { getMissionOrThrow } from './views';
import { assertUnfundedRoom, fundingTermsAt, withFundingLink } from './funding-terms';

const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

export async function createMission(
  db: Db,
  cfg: Config,
  user: { id: string; role: 'CLIENT' | 'AGENT'; walletAddress: string },
  body: RequestBody,
  idempotencyKey: string | null,
  now: Date,
): Promise<MissionJson> {
  const input = validate(
    createMissionSchema,
    body.multipart ? fromForm(body.fields as Record<string, string>) : body.fields,
  );
  checkDeadline(input.deadline, now);
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
  let id: string;
  try {
    id = await db.transaction(async (tx) => {
      const earlier = idempotencyKey ? await findByIdempotencyKey(tx, user.id, idempotencyKey, now) : undefined;
      if (earlier) return replayOf(earlier, fingerprint);
      if (unfunded) await assertUnfundedRoom(tx, cfg, user.id);
      return insertMission(tx, cfg, user.id, input, { key: idempotencyKey, fingerprint }, body, now, unfunded);
    });
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint === 'missions_on_chain_task_idx') {
      throw new ApiError(400, 'Validation failed', ['onChainTaskId: already linked to another mission']);
    }
    // The same key raced in twice: the other request created it; answer that mission.
    const earlier =
      constraint === 'missions_idempotency_idx'
        ? await findByIdempotencyKey(db, user.id, idempotencyKey!, now)
        : undefined;
    if (!earlier) throw error;
    id = replayOf(earlier, fingerprint);
  }
  // A replay answers the first response: the mission that key created, as it is now.
  const mission = await getMissionOrThrow(db, cfg, id, viewer, now);
  return unfunded ? withFundingLink(cfg, mission, id) : mission;
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
  input: CreateMissionInput,
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
      winners: input.assignment === 'BOUNTY' ? (input.winners ?? 1) : null,
      split: input.split ?? null,
      // docs/api.md#criteria: the hash is written with the list and, like it, never changes once OPEN.
      criteria: input.criteria ?? null,
      criteriaHash: input.criteria ? criteriaHash(input.criteria) : null,
      idempotencyKey: idempotency.key,
      idempotencyFingerprint: idempotency.fingerprint,
      listedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning(missionColumns);
  if (!unfunded) await ledger.fund(tx, mission!);
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
  // An unfunded mission is announced when it is funded (funding-relay.ts), never before.
  if (!unfunded) await emitCreated(tx, mission!, now);
  return mission!.id;
}
