import { requireOperatorSecret } from '@/lib/http/operator-auth';
import { jsonText, route } from '@/lib/http/route';
import { resolveMission } from '@/lib/missions';
import { readJson } from '@/lib/http/validation';

// DISPUTED → COMPLETED or CANCELLED, by the operator (ADMIN_TOKEN): `{ outcome, note? }`.
export const POST = route({}, async ({ request, params, cfg, db }) => {
  requireOperatorSecret(request, cfg.adminToken);
  return jsonText(await resolveMission(await db(), cfg, params.id!, await readJson(request, 16 * 1024), new Date()));
});
