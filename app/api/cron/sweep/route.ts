import { json, route } from '@/lib/http/route';
import { requireOperatorSecret } from '@/lib/http/operator-auth';
import { runSweep } from '@/lib/operations/sweep';

// Vercel Cron calls GET with `Authorization: Bearer $CRON_SECRET`; schedulers elsewhere may POST.
const sweep = route({}, async ({ request, cfg, db }) => {
  requireOperatorSecret(request, cfg.cronSecret);
  return json(await runSweep(await db(), cfg));
});

export const GET = sweep;
export const POST = sweep;
