import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import {
  commentListSchema,
  commentSchema,
  commentViewSchema,
  listComments,
  pageQuerySchema,
  postComment,
} from '@/lib/marketplace';
import { viewerOf } from '@/lib/missions';
import { idSchema } from '@/lib/fields';

// Public while the mission is OPEN; once accepted, its parties' (and the operator's) only.
export const GET = route(
  {
    auth: 'optional',
    scope: 'missions:read',
    query: pageQuerySchema,
    params: { id: idSchema },
    doc: {
      tag: 'Marketplace',
      summary: "Questions and answers: public while OPEN, the parties' afterwards",
      response: commentListSchema,
      errors: [403, 404],
    },
  },
  async ({ params, caller, query, db }) => json(await listComments(await db(), params.id, viewerOf(caller), query)),
);

export const POST = route(
  {
    auth: 'user',
    scope: ['missions:work', 'missions:post'],
    limit: 'comment',
    body: commentSchema,
    params: { id: idSchema },
    doc: {
      tag: 'Marketplace',
      summary: 'Ask or answer (10 a minute a user)',
      response: commentViewSchema,
      status: 201,
      errors: [403, 404],
    },
  },
  async ({ params, caller, body, db }) =>
    json(await postComment(await db(), params.id, viewerOf(caller), body, new Date()), { status: 201 }),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
