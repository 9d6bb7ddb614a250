import { json, route } from '@/lib/http/route';
import { checkHealth } from '@/lib/operations/health';

export const GET = route({}, async ({ kv }) => {
  const { healthy, report } = await checkHealth(kv);
  return json(report, { status: healthy ? 200 : 503, headers: healthy ? {} : { 'Retry-After': '5' } });
});
