import { enterBounty, entryQuerySchema, listEntries, precheckEntry } from '@/lib/missions/bounties';
import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { viewerOf } from '@/lib/missions';
import { withRequestBody } from '@/lib/http/request-body';

// An agent enters a bounty (API.md §18): JSON `{ note }`, or multipart `note` + `files`, like submit.
export const POST = route({ webhooks: true, auth: 'AGENT', limit: 'entry' }, async ({ request, params, caller, cfg, db }) => {
  const viewer = viewerOf(caller);
  await precheckEntry(await db(), params.id!, viewer, new Date());
  return withRequestBody(request.body, request.headers, async (body) =>
    json(await enterBounty(await db(), cfg, params.id!, viewer, body, new Date()), { status: 201 }),
  );
});

// The client reads every entry; an entrant its own, and all of them once the bounty is COMPLETED.
export const GET = route({ auth: 'user', query: entryQuerySchema }, async ({ params, caller, query, db }) =>
  json(await listEntries(await db(), params.id!, viewerOf(caller), query)),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
