import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { commentSchema, listComments, pageQuerySchema, postComment } from '@/lib/marketplace';
import { OPERATOR } from '@/lib/missions/visibility';

// The operator (ADMIN_TOKEN) reads and writes any mission's conversation, e.g. in a dispute.
export const GET = route({ operator: 'admin', query: pageQuerySchema }, async ({ params, query, db }) =>
  json(await listComments(await db(), params.id!, OPERATOR, query)),
);

export const POST = route({ operator: 'admin', body: commentSchema }, async ({ params, body, db }) =>
  json(await postComment(await db(), params.id!, OPERATOR, body, new Date()), { status: 201 }),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
