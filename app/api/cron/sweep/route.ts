import { json, route } from '@/lib/http/route';
import { runSweep } from '@/lib/operations/sweep';
import { otherMethods } from '@/lib/http/methods';

// Vercel Cron calls GET with `Authorization: Bearer $CRON_SECRET`; schedulers elsewhere may POST.
const sweep = route({ operator: 'cron' }, async ({ cfg, db, kv }) => json(await runSweep(await db(), kv, cfg)));

export const GET = sweep;
export const POST = sweep;

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
