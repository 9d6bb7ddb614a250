import { accountStats, accountStatsSchema } from '@/lib/account';
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';

export const GET = route(
  {
    auth: 'user',
    scope: 'missions:read',
    doc: { tag: 'Account', summary: "The caller's counts as client and as agent", response: accountStatsSchema },
  },
  async ({ caller, db }) => json(await accountStats(await db(), caller.user.id)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
