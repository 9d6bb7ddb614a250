import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import {
  editReview,
  missionReviewsSchema,
  readMissionReviews,
  reviewMission,
  reviewPatchSchema,
  reviewSchema,
  reviewViewSchema,
} from '@/lib/marketplace';
import { viewerOf } from '@/lib/missions';
import { idSchema } from '@/lib/fields';

// docs/api.md#reviews: the caller's side decides whom it reviews — the owner of a COMPLETED mission its
// agent, the agent of a settled one its client — once each (a second review is 409) …
export const POST = route(
  {
    auth: 'user',
    scope: ['missions:post', 'missions:work'],
    limit: 'write',
    body: reviewSchema,
    params: { id: idSchema },
    doc: {
      tag: 'Marketplace',
      summary: 'Review the other party of a settled mission, once: the owner its agent, the agent its client',
      description:
        'Double-blind: the review is hidden from the other party and the public until both have reviewed ' +
        'or 7 days after the mission settled.',
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
    scope: ['missions:post', 'missions:work'],
    limit: 'write',
    body: reviewPatchSchema,
    params: { id: idSchema },
    doc: {
      tag: 'Marketplace',
      summary: 'Edit your review within 24 hours of writing it',
      response: reviewViewSchema,
      errors: [403, 404, 409],
    },
  },
  async ({ params, caller, body, db }) =>
    json(await editReview(await db(), params.id, viewerOf(caller), body, new Date())),
);

// Both reviews as the caller may see them: its own always, the other's once the seal is open.
export const GET = route(
  {
    auth: 'optional',
    scope: 'missions:read',
    params: { id: idSchema },
    doc: {
      tag: 'Marketplace',
      summary: "A mission's two reviews, each shown once both are in or 7 days after settlement",
      response: missionReviewsSchema,
      errors: [404],
    },
  },
  async ({ params, caller, db }) => json(await readMissionReviews(await db(), params.id, viewerOf(caller), new Date())),
);

export const { PUT, DELETE } = otherMethods('GET', 'POST', 'PATCH');
