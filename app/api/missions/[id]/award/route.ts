import { awardBounty, awardSchema } from '@/lib/missions/bounties';
import { otherMethods } from '@/lib/http/methods';
import { jsonText, route } from '@/lib/http/route';
import { viewerOf } from '@/lib/missions';

// The client awards a JUDGING bounty (API.md §18): `{ winners: [address…], reason? }` → AWARDED.
export const POST = route({ webhooks: true, auth: 'user', limit: 'write', body: awardSchema }, async ({ params, caller, body, cfg, db }) =>
  jsonText(await awardBounty(await db(), cfg, params.id!, viewerOf(caller), body, new Date())),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
