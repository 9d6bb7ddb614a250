import { fileResponse } from '@/lib/http/file-response';
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

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
