import { fileResponse } from '@/lib/http/file-response';
import { route } from '@/lib/http/route';
import { getMissionFileOrThrow, viewerOf } from '@/lib/missions';
import { otherMethods } from '@/lib/http/methods';

export const GET = route({ auth: 'optional', scope: 'missions:read', limit: 'download' }, async ({ params, caller, db }) =>
  fileResponse(await getMissionFileOrThrow(await db(), params.id!, params.fileId!, viewerOf(caller))),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
