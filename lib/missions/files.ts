// Mission files: checked uploads written as content-addressed blobs (SHA-256, bytes in the
// database so every instance serves them) plus one row per use, and the lookups that read them.
// Writing happens inside the transaction of the change the files belong to; a lapsed mission's
// blobs that nothing else uses are deleted with it.
import 'server-only';
import { readFile } from 'node:fs/promises';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { fileBlobs, type MissionFileKind, missionFiles, missions } from '../db/schema';
import type { SpooledFile } from '../uploads';
import { enteredBy } from './visibility';

export interface FileOwner {
  missionId: string;
  kind: MissionFileKind;
  assignment: number;
  round: number;
  uploaderId: string;
}

const fileColumns = {
  id: missionFiles.id,
  missionId: missionFiles.missionId,
  kind: missionFiles.kind,
  assignment: missionFiles.assignment,
  round: missionFiles.round,
  filename: missionFiles.filename,
  contentType: missionFiles.contentType,
  size: missionFiles.size,
  sha256: missionFiles.sha256,
  uploaderId: missionFiles.uploaderId,
};

/** Stores each file (one in memory at a time; a blob already held is not sent again) and links it. */
export async function storeFiles(tx: Db, owner: FileOwner, files: SpooledFile[], now: Date): Promise<string[]> {
  const ids: string[] = [];
  for (const [position, file] of files.entries()) {
    // FOR KEY SHARE: a blob found here stays until this transaction ends — the lapse's FOR UPDATE
    // (lockBlobs) waits for it. One the lapse is deleting makes this wait, then reads as
    // gone, so it is written again: a row never points at a deleted blob (docs/api.md#post-and-pay).
    const [known] = await tx
      .select({ sha256: fileBlobs.sha256 })
      .from(fileBlobs)
      .where(eq(fileBlobs.sha256, file.sha256))
      .limit(1)
      .for('key share');
    if (!known) {
      // Sent as base64 text and decoded by the database: PGlite's bytea parameter encoding costs
      // seconds per 10 MB, base64 a few milliseconds on both drivers.
      const bytes = sql<Buffer>`decode(${(await readFile(file.path)).toString('base64')}, 'base64')`;
      await tx.insert(fileBlobs).values({ sha256: file.sha256, size: file.size, bytes }).onConflictDoNothing();
    }
    const [row] = await tx
      .insert(missionFiles)
      .values({
        ...owner,
        sha256: file.sha256,
        filename: file.filename,
        contentType: file.contentType,
        size: file.size,
        position,
        createdAt: now,
      })
      .returning({ id: missionFiles.id });
    ids.push(row!.id);
  }
  return ids;
}

/** The blobs a mission's files use: what may become unreferenced once the mission is deleted. */
export async function blobsOfMission(tx: Db, missionId: string): Promise<string[]> {
  const rows = await tx
    .selectDistinct({ sha256: missionFiles.sha256 })
    .from(missionFiles)
    .where(eq(missionFiles.missionId, missionId));
  return rows.map((r) => r.sha256);
}

/**
 * Locks the blobs a lapse may delete, FOR UPDATE and in one order (two sweeps never deadlock), before
 * their uses go: an upload that found one (storeFiles' FOR KEY SHARE, or the foreign key's own lock) is
 * waited for, and an upload that comes next waits for the lapse, then finds the blob gone and writes it
 * again (docs/api.md#post-and-pay).
 */
export async function lockBlobs(tx: Db, candidates: string[]): Promise<string[]> {
  if (candidates.length === 0) return [];
  const locked = await tx
    .select({ sha256: fileBlobs.sha256 })
    .from(fileBlobs)
    .where(inArray(fileBlobs.sha256, candidates))
    .orderBy(fileBlobs.sha256)
    .for('update');
  return locked.map((b) => b.sha256);
}

/**
 * Deletes those of the `locked` blobs no mission file uses any more. A new statement after the locks:
 * under read committed it sees every use committed by then, and an uncommitted one cannot exist (it
 * would hold a lock on the blob). Returns how many went.
 */
export async function deleteUnusedBlobs(tx: Db, locked: string[]): Promise<number> {
  if (locked.length === 0) return 0;
  const gone = await tx
    .delete(fileBlobs)
    .where(
      and(
        inArray(fileBlobs.sha256, locked),
        sql`not exists (select 1 from ${missionFiles} where ${missionFiles.sha256} = ${fileBlobs.sha256})`,
      ),
    )
    .returning({ sha256: fileBlobs.sha256 });
  return gone.length;
}

/** A file with the facts about its mission that decide whether `viewerId` may download it; no bytes yet. */
export async function findMissionFile(db: Db, missionId: string, fileId: string, viewerId: string | null) {
  const entered = viewerId ? enteredBy(sql`${viewerId}::uuid`) : sql<boolean>`false`;
  const [row] = await db
    .select({
      file: fileColumns,
      mission: {
        status: missions.status,
        clientId: missions.clientId,
        agentId: missions.agentId,
        assignment: missions.assignment,
        entered,
      },
    })
    .from(missionFiles)
    .innerJoin(missions, eq(missions.id, missionFiles.missionId))
    .where(and(eq(missionFiles.id, fileId), eq(missionFiles.missionId, missionId)))
    .limit(1);
  return row;
}

// A download never holds the whole file (docs/api.md#files): the bytes come in slices of this size,
// each read by its own statement (file_blobs.bytes is stored uncompressed, so a slice reads only
// its own pages) and released before the next one is asked for.
export const BLOB_CHUNK_BYTES = 256 * 1024;

/** The blob's bytes, slice by slice, read on demand; stops early when the blob is gone. */
export async function* readBlobChunks(db: Db, sha256: string, size: number): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < size; offset += BLOB_CHUNK_BYTES) {
    // Moved as base64 text, as on the way in: PGlite's bytea decoding is slow.
    const [row] = await db
      .select({
        base64: sql<string>`encode(substring(${fileBlobs.bytes} from ${offset + 1} for ${BLOB_CHUNK_BYTES}), 'base64')`,
      })
      .from(fileBlobs)
      .where(eq(fileBlobs.sha256, sha256))
      .limit(1);
    if (!row) return;
    yield Buffer.from(row.base64, 'base64');
  }
}
