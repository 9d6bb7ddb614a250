// Bounty entries (docs/api.md#bounties): an agent enters an OPEN bounty before its deadline — a note and
// files, multipart like submit — once, replaceable until the deadline, at most MAX_BOUNTY_ENTRIES a
// bounty. The mission row's lock orders entries against each other and against the deadline's
// close, so every entry answered 201 is there and none lands after. Entries are read by the client
// and each by its author only, until the bounty is COMPLETED.
import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { bountyEntries, missionFiles, missions, users } from '../db/schema';
import { afterCursor, pageOf, pageOrder } from '../paging/created-pages';
import { ApiError } from '../errors';
import { validate } from '../fields';
import type { RequestBody } from '../uploads/request-body';
import { recordEvent } from '../missions/events';
import { storeFiles } from '../missions/files';
import { readFile } from 'node:fs/promises';
import { type CriterionCheck, unknownCriteria } from '../missions/criteria';
import { runChecks } from '../missions/criterion-checks';
import { fromForm } from '../missions/form-fields';
import { findMission, lockMission, type Mission } from '../missions/queries';
import { canSeeMission, isOwner, type Viewer } from '../missions/visibility';
import { emitToParties } from '../webhooks/outbox';
import { findEntry } from '../missions/award';
import { decide } from '../missions/transitions';
import { type EntryView, entrySchema, type entryQuerySchema } from './schemas';

const notFound = () => new ApiError(404, 'Mission not found');

/** Why `viewer` may not enter `mission` now, or undefined: the table's `enter` row (lib/missions/transitions.ts). */
function entryRefusal(
  cfg: Config,
  mission: Mission | undefined,
  entered: boolean,
  viewer: Viewer,
  now: Date,
): ApiError | undefined {
  if (!mission || !canSeeMission({ ...mission, entered }, viewer)) return notFound();
  if (viewer.kind !== 'user') return new ApiError(401, 'Authentication required');
  const decision = decide('enter', { ...mission, entered }, viewer, now, cfg.missions);
  return decision.ok ? undefined : new ApiError(decision.status, decision.message);
}

/** The same refusal on an unlocked read, before the upload is read (docs/api.md#uploads). */
export async function precheckEntry(db: Db, cfg: Config, missionId: string, viewer: Viewer, now: Date): Promise<void> {
  const entered = viewer.kind === 'user' && (await findEntry(db, missionId, viewer.id)) !== undefined;
  const refusal = entryRefusal(cfg, await findMission(db, missionId), entered, viewer, now);
  if (refusal) throw refusal;
}

export async function enterBounty(
  db: Db,
  cfg: Config,
  missionId: string,
  viewer: Viewer,
  body: RequestBody,
  now: Date,
): Promise<EntryView> {
  const { note, selfCheck } = validate(
    entrySchema,
    body.multipart ? fromForm(body.fields as Record<string, string>) : body.fields,
  );
  if (note === '' && body.files.length === 0)
    throw new ApiError(400, 'Validation failed', ['note: an entry needs a note or files']);
  // docs/api.md#checked-criteria: the bounty's checks run on this entry's files, outside the transaction.
  const checks = await entryChecks(cfg, await findMission(db, missionId), body.files, now);
  const entryId = await db.transaction(async (tx) => {
    const mission = await lockMission(tx, missionId);
    const earlier = viewer.kind === 'user' ? await findEntry(tx, missionId, viewer.id) : undefined;
    const refusal = entryRefusal(cfg, mission, earlier !== undefined, viewer, now);
    if (refusal) throw refusal;
    // docs/api.md#criteria: a self-check names only the bounty's own criteria.
    const unknown = unknownCriteria('selfCheck', selfCheck ?? [], mission!.criteria);
    if (unknown.length > 0) throw new ApiError(400, 'Validation failed', unknown);
    const agentId = (viewer as { id: string }).id;
    let id: string;
    let version = 1;
    if (earlier) {
      // A replacement: the earlier version's files go with it.
      version = earlier.version + 1;
      await tx
        .delete(missionFiles)
        .where(
          and(
            eq(missionFiles.missionId, missionId),
            eq(missionFiles.kind, 'ENTRY'),
            eq(missionFiles.uploaderId, agentId),
          ),
        );
      await tx
        .update(bountyEntries)
        .set({ note, selfCheck: selfCheck ?? null, checks, version, updatedAt: now })
        .where(eq(bountyEntries.id, earlier.id));
      id = earlier.id;
    } else {
      if (mission!.entryCount >= cfg.missions.maxBountyEntries) {
        throw new ApiError(409, `This bounty has taken the most entries it may (${cfg.missions.maxBountyEntries})`);
      }
      const [row] = await tx
        .insert(bountyEntries)
        .values({ missionId, agentId, note, selfCheck: selfCheck ?? null, checks, createdAt: now, updatedAt: now })
        .returning({ id: bountyEntries.id });
      await tx
        .update(missions)
        .set({ entryCount: mission!.entryCount + 1, updatedAt: now })
        .where(and(eq(missions.id, missionId), eq(missions.status, 'OPEN')));
      id = row!.id;
    }
    const files = await storeFiles(
      tx,
      { missionId, kind: 'ENTRY', assignment: 0, round: version, uploaderId: agentId },
      body.files,
      now,
    );
    await recordEvent(tx, {
      missionId,
      clientId: mission!.clientId,
      viewer,
      action: 'enter',
      from: 'OPEN',
      to: 'OPEN',
      data: { version, files, ...(selfCheck ? { selfCheck } : {}), ...(checks ? { checks } : {}) },
      now,
    });
    const [agent] = await tx.select({ walletAddress: users.walletAddress }).from(users).where(eq(users.id, agentId));
    // To the client alone (the mission's agent is null on a bounty): no entrant hears of another.
    await emitToParties(tx, 'mission.entry_submitted', { ...mission!, agentId: null }, now, {
      entry: { id, agent: agent!, version },
    });
    return id;
  });
  return (await entryRows(db, missionId, { id: entryId }))[0]!;
}

/**
 * A page of the bounty's entries as the viewer may read them: every entry for the client and the
 * operator, and for each entrant once the bounty is COMPLETED; otherwise the viewer's own only.
 */
export async function listEntries(db: Db, missionId: string, viewer: Viewer, query: z.infer<typeof entryQuerySchema>) {
  const mission = await findMission(db, missionId);
  if (!mission) throw notFound();
  const own = viewer.kind === 'user' ? await findEntry(db, missionId, viewer.id) : undefined;
  if (!canSeeMission({ ...mission, entered: own !== undefined }, viewer)) throw notFound();
  if (mission.assignmentMode !== 'BOUNTY') throw new ApiError(409, 'This mission is not a bounty');
  if (viewer.kind === 'anonymous') throw new ApiError(401, 'Authentication required');
  const all =
    viewer.kind === 'operator' || isOwner(mission, viewer) || (mission.status === 'COMPLETED' && own !== undefined);
  const author = all || viewer.kind !== 'user' ? undefined : viewer.id;
  const rows = await entryRows(db, missionId, { author, limit: query.limit + 1, cursor: query.cursor });
  return pageOf(
    rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt) })),
    query.limit,
    ({ createdAt, ...row }) => ({ ...row, createdAt: createdAt.toISOString() }),
  );
}

async function entryRows(
  db: Db,
  missionId: string,
  page: { id?: string; author?: string; limit?: number; cursor?: string },
): Promise<EntryView[]> {
  const e = bountyEntries;
  const rows = await db
    .select({
      id: e.id,
      agentId: e.agentId,
      walletAddress: users.walletAddress,
      note: e.note,
      selfCheck: e.selfCheck,
      checks: e.checks,
      version: e.version,
      createdAt: e.createdAt,
      updatedAt: e.updatedAt,
      place: e.place,
      amount: e.amount,
      contestedAt: e.contestedAt,
    })
    .from(e)
    .innerJoin(users, eq(users.id, e.agentId))
    .where(
      and(
        eq(e.missionId, missionId),
        page.id ? eq(e.id, page.id) : undefined,
        page.author ? eq(e.agentId, page.author) : undefined,
        afterCursor(page.cursor, e.createdAt, e.id),
      ),
    )
    .orderBy(...pageOrder(e.createdAt, e.id))
    .limit(page.limit ?? 1);
  const files =
    rows.length === 0
      ? []
      : await db
          .select({
            id: missionFiles.id,
            uploaderId: missionFiles.uploaderId,
            round: missionFiles.round,
            filename: missionFiles.filename,
            contentType: missionFiles.contentType,
            size: missionFiles.size,
            sha256: missionFiles.sha256,
          })
          .from(missionFiles)
          .where(
            and(
              eq(missionFiles.missionId, missionId),
              eq(missionFiles.kind, 'ENTRY'),
              inArray(
                missionFiles.uploaderId,
                rows.map((r) => r.agentId),
              ),
            ),
          )
          .orderBy(missionFiles.createdAt, missionFiles.position, missionFiles.id);
  return rows.map((row) => ({
    id: row.id,
    agent: { walletAddress: row.walletAddress },
    note: row.note,
    selfCheck: row.selfCheck ?? [],
    checks: row.checks ?? [],
    files: files
      .filter((f) => f.uploaderId === row.agentId && f.round === row.version)
      .map(({ id, filename, contentType, size, sha256 }) => ({ id, filename, contentType, size, sha256 })),
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    place: row.place,
    amount: row.amount,
    contested: row.contestedAt !== null,
  }));
}

/** The checks of a bounty that has them, run on an entry's files (null: none to run). */
async function entryChecks(cfg: Config, mission: Mission | undefined, files: RequestBody['files'], now: Date) {
  if (!mission?.criteriaChecks || mission.assignmentMode !== 'BOUNTY') return null;
  const delivered = files.map((file) => ({ ...file, read: () => readFile(file.path) }));
  return runChecks(cfg, mission.criteriaChecks as (CriterionCheck | null)[], delivered, now);
}
