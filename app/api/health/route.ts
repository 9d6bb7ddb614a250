import { json, route } from '@/lib/http/route';
import { checkHealth } from '@/lib/operations/health';
import { otherMethods } from '@/lib/http/methods';

export const GET = route({}, async ({ kv }) => {
  const { healthy, report } = await checkHealth(kv);
  return json(report, { status: healthy ? 200 : 503, headers: healthy ? {} : { 'Retry-After': '5' } });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
