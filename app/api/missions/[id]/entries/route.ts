import { enterBounty, entryQuerySchema, listEntries, precheckEntry } from '@/lib/bounties';
import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { viewerOf } from '@/lib/missions';
import { withRequestBody } from '@/lib/uploads/request-body';
import { idSchema } from '@/lib/fields';
import { entryListSchema, entrySchema, entryViewSchema } from '@/lib/bounties/schemas';

// An agent enters a bounty (docs/api.md#bounties): JSON `{ note }`, or multipart `note` + `files`, like submit.
export const POST = route(
  {
    auth: 'AGENT',
    runs: ['enter'],
    scope: 'missions:work',
    limit: 'entry',
    params: { id: idSchema },
    doc: {
      tag: 'Bounties',
      summary: 'Enter a BOUNTY (AGENT): note and files; once each, replaceable until the deadline',
      description:
        'At most MAX_BOUNTY_ENTRIES (200) a bounty; ENTRY_RATE_LIMIT_PER_MINUTE (10) per agent. ' +
        'An entry is read by the client and its author only until the bounty is COMPLETED.',
      body: entrySchema,
      multipart: true,
      response: entryViewSchema,
      status: 201,
      errors: [403, 404, 409, 413, 415],
    },
  },
  async ({ request, params, caller, cfg, db }) => {
    const viewer = viewerOf(caller);
    await precheckEntry(await db(), cfg, params.id, viewer, new Date());
    return withRequestBody(request.body, request.headers, async (body) =>
      json(await enterBounty(await db(), cfg, params.id, viewer, body, new Date()), { status: 201 }),
    );
  },
);

// The client reads every entry; an entrant its own, and all of them once the bounty is COMPLETED.
export const GET = route(
  {
    auth: 'user',
    scope: 'missions:read',
    query: entryQuerySchema,
    params: { id: idSchema },
    doc: {
      tag: 'Bounties',
      summary: "A bounty's entries: all to the client (and every entrant once COMPLETED), its own to an entrant",
      response: entryListSchema,
      errors: [404, 409],
    },
  },
  async ({ params, caller, query, db }) => json(await listEntries(await db(), params.id, viewerOf(caller), query)),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
