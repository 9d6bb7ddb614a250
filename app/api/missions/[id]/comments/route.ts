import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { commentSchema, listComments, pageQuerySchema, postComment } from '@/lib/marketplace';
import { viewerOf } from '@/lib/missions';

// Public while the mission is OPEN; once accepted, its parties' (and the operator's) only.
export const GET = route({ auth: 'optional', scope: 'missions:read', query: pageQuerySchema }, async ({ params, caller, query, db }) =>
  json(await listComments(await db(), params.id!, viewerOf(caller), query)),
);

export const POST = route({ auth: 'user', scope: ['missions:work', 'missions:post'], limit: 'comment', body: commentSchema }, async ({ params, caller, body, db }) =>
  json(await postComment(await db(), params.id!, viewerOf(caller), body, new Date()), { status: 201 }),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
