import { json, route } from '@/lib/http/route';
import { checkHealth, healthReportSchema } from '@/lib/operations/health';
import { otherMethods } from '@/lib/http/methods';

export const GET = route(
  {
    doc: {
      tag: 'Operations',
      summary: 'Dependencies: database, KV, chain',
      description: '`degraded` (still 200) while settlements wait as FAILED for the operator.',
      response: healthReportSchema,
      errors: [{ status: 503, description: 'The database or the KV is down', schema: healthReportSchema }],
    },
  },
  async ({ kv }) => {
    const { healthy, report } = await checkHealth(kv);
    return json(report, { status: healthy ? 200 : 503, headers: healthy ? {} : { 'Retry-After': '5' } });
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
