import { z } from 'zod';
import { json, route, type RouteContext, type RouteOptions } from '@/lib/http/route';
import { runSweep } from '@/lib/operations/sweep';
import { otherMethods } from '@/lib/http/methods';

const sweepReport = z.record(z.string(), z.unknown()).describe('What the sweep did, by kind of work');
const sweep = async ({ cfg, db, kv }: Pick<RouteContext<RouteOptions>, 'cfg' | 'db' | 'kv'>) =>
  json(await runSweep(await db(), kv, cfg));

// Vercel Cron calls GET with `Authorization: Bearer $CRON_SECRET`; schedulers elsewhere may POST.
export const GET = route(
  {
    operator: 'cron',
    doc: { tag: 'Operations', summary: 'Run the sweep (Vercel Cron)', response: sweepReport, errors: [404] },
  },
  sweep,
);

export const POST = route(
  {
    operator: 'cron',
    doc: { tag: 'Operations', summary: 'Run the sweep', response: sweepReport, errors: [404] },
  },
  sweep,
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
