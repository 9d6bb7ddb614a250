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
import { OPERATOR } from '@/lib/missions/visibility';
import { idSchema } from '@/lib/fields';

// The operator (ADMIN_TOKEN) reads and writes any mission's conversation, e.g. in a dispute.
export const GET = route(
  {
    operator: 'admin',
    query: pageQuerySchema,
    params: { id: idSchema },
    doc: {
      tag: 'Operations',
      summary: "A mission's conversation, for the operator",
      response: commentListSchema,
      errors: [404],
    },
  },
  async ({ params, query, db }) => json(await listComments(await db(), params.id, OPERATOR, query)),
);

export const POST = route(
  {
    operator: 'admin',
    body: commentSchema,
    params: { id: idSchema },
    doc: {
      tag: 'Operations',
      summary: "Write in a mission's conversation as the operator",
      response: commentViewSchema,
      status: 201,
      errors: [404],
    },
  },
  async ({ params, body, db }) =>
    json(await postComment(await db(), params.id, OPERATOR, body, new Date()), { status: 201 }),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
