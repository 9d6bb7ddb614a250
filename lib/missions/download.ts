// GET /api/missions/{id}/files/{fileId}: the stored bytes, only for a viewer allowed to see both
// the mission and that file; everyone else gets the same 404 as for a file that does not exist.
// The bytes are streamed from the database in slices, never held whole (docs/api.md#files).
import 'server-only';
import type { Db } from '../db/client';
import { ApiError } from '../errors';
import { findMissionFile, readBlobChunks } from './files';
import { canSeeFile, type Viewer } from './visibility';

export async function getMissionFileOrThrow(db: Db, missionId: string, fileId: string, viewer: Viewer) {
  const notFound = new ApiError(404, 'File not found');
  const found = await findMissionFile(db, missionId, fileId, viewer.kind === 'user' ? viewer.id : null);
  if (!found || !canSeeFile(found.mission, found.file, viewer)) throw notFound;
  const { filename, contentType, sha256, size } = found.file;
  return { filename, contentType, sha256, size, chunks: readBlobChunks(db, sha256, size) };
}
