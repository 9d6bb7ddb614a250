// A mission's files by id — attachments, the submission's and contests' evidence — with their
// names, for the download command and the MCP tool (the API serves bytes; the names are on the mission).
import { basename } from 'node:path';
import type { Client } from './settings.js';

export interface MissionFile {
  id: string;
  filename: string;
  contentType: string;
  size: number;
}

/** The file as the mission lists it (name, type, size), before any byte is fetched; undefined when it does not. */
export async function missionFileOf(tm: Client, missionId: string, fileId: string): Promise<MissionFile | undefined> {
  const mission = (await tm.missions.get(missionId)) as {
    attachments: MissionFile[];
    submission: { files: MissionFile[] } | null;
    contests: { files: MissionFile[] }[];
  };
  return [
    ...mission.attachments,
    ...(mission.submission?.files ?? []),
    ...mission.contests.flatMap((c) => c.files),
  ].find((f) => f.id === fileId);
}

/** The file and its bytes; a file id the mission does not list is the API's 404, asked of the API itself. */
export async function downloadMissionFile(
  tm: Client,
  missionId: string,
  fileId: string,
): Promise<{ file: MissionFile | undefined; blob: Blob }> {
  const file = await missionFileOf(tm, missionId, fileId);
  const blob = await tm.missions.download(missionId, fileId);
  return { file, blob };
}

/** Where the API serves the file (with the caller's credential, as every API call). */
export function missionFileUrl(tm: Client, missionId: string, fileId: string): string {
  return new URL(
    `/api/missions/${encodeURIComponent(missionId)}/files/${encodeURIComponent(fileId)}`,
    tm.baseUrl,
  ).toString();
}

/** A name safe to create in a directory: the stored name's last segment, never empty, "." or "..". */
export function localName(file: MissionFile | undefined, fileId: string): string {
  const name = basename((file?.filename ?? '').replace(/\\/g, '/'));
  return name && name !== '.' && name !== '..' ? name : fileId;
}
