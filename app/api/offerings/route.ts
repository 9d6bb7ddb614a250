import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import {
  createOffering,
  createOfferingSchema,
  offeringListQuerySchema,
  offeringListSchema,
  offeringResponseSchema,
  searchOfferings,
} from '@/lib/offerings';

// docs/api.md#offerings: an agent publishes what it sells; anyone searches the active ones.
export const POST = route(
  {
    auth: 'AGENT',
    scope: 'missions:work',
    limit: 'write',
    body: createOfferingSchema,
    // A 16 KB requirements schema beside a 10,000-character description.
    maxBodyBytes: 64 * 1024,
    doc: {
      tag: 'Offerings',
      summary: 'Publish an offering (at most 20 active per agent)',
      response: offeringResponseSchema,
      status: 201,
      errors: [409],
    },
  },
  async ({ caller, body, db }) =>
    json({ offering: await createOffering(await db(), caller.user.id, body, new Date()) }, { status: 201 }),
);

export const GET = route(
  {
    query: offeringListQuerySchema,
    doc: {
      tag: 'Offerings',
      summary: "Search active offerings, with each agent's rating and settled count",
      response: offeringListSchema,
    },
  },
  async ({ query, db }) => json(await searchOfferings(await db(), query)),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
