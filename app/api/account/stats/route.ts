import { accountStats } from '@/lib/account';
import { json, route } from '@/lib/http/route';

export const GET = route({ auth: 'user' }, async ({ caller, db }) => json(await accountStats(await db(), caller.user.id)));
