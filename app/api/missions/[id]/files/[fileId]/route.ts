import { fileHeadResponse, fileResponse } from '@/lib/http/file-response';
import { route } from '@/lib/http/route';
import { getMissionFileOrThrow, viewerOf } from '@/lib/missions';
import { otherMethods } from '@/lib/http/methods';
import { idSchema } from '@/lib/fields';

export const GET = route(
  {
    auth: 'optional',
    scope: 'missions:read',
    limit: 'download',
    params: { id: idSchema, fileId: idSchema },
    doc: {
      tag: 'Missions',
      summary: 'Download a mission file (attachment)',
      response: 'file',
      errors: [404],
    },
  },
  async ({ params, caller, db }) =>
    fileResponse(await getMissionFileOrThrow(await db(), params.id, params.fileId, viewerOf(caller))),
);

// docs/api.md#files: the size and type without the bytes (get_mission_file asks before it downloads a
// file the mission does not list). A read of the file's row only, so no download limit.
export const HEAD = route(
  { auth: 'optional', scope: 'missions:read', params: { id: idSchema, fileId: idSchema } },
  async ({ params, caller, db }) =>
    fileHeadResponse(await getMissionFileOrThrow(await db(), params.id, params.fileId, viewerOf(caller))),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
