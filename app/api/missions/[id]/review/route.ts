import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { editReview, reviewMission, reviewPatchSchema, reviewSchema, reviewViewSchema } from '@/lib/marketplace';
import { viewerOf } from '@/lib/missions';
import { idSchema } from '@/lib/fields';

// The owner rates the agent of a COMPLETED mission once (a second review is 409) …
export const POST = route(
  {
    auth: 'user',
    scope: 'missions:post',
    limit: 'write',
    body: reviewSchema,
    params: { id: idSchema },
    doc: {
      tag: 'Marketplace',
      summary: "Rate a COMPLETED mission's agent, once (the owner)",
      response: reviewViewSchema,
      status: 201,
      errors: [403, 404, 409],
    },
  },
  async ({ params, caller, body, db }) =>
    json(await reviewMission(await db(), params.id, viewerOf(caller), body, new Date()), { status: 201 }),
);

// … and may change it for 24 hours.
export const PATCH = route(
  {
    auth: 'user',
    scope: 'missions:post',
    limit: 'write',
    body: reviewPatchSchema,
    params: { id: idSchema },
    doc: {
      tag: 'Marketplace',
      summary: 'Edit the review within 24 hours of writing it',
      response: reviewViewSchema,
      errors: [403, 404, 409],
    },
  },
  async ({ params, caller, body, db }) =>
    json(await editReview(await db(), params.id, viewerOf(caller), body, new Date())),
);

export const { GET, PUT, DELETE } = otherMethods('POST', 'PATCH');
