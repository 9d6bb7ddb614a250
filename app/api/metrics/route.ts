import { otherMethods } from '@/lib/http/methods';
import { route } from '@/lib/http/route';
import { renderMetrics } from '@/lib/operations/metrics-exposition';

// Prometheus scrapes with `Authorization: Bearer $METRICS_TOKEN` (docs/api.md#observability); unset, it is 404.
export const GET = route(
  {
    operator: 'metrics',
    doc: {
      tag: 'Operations',
      summary: "This instance's Prometheus metrics (text format)",
      description:
        'Counters and latencies are per instance: scrape each one. Settlement and delivery ' +
        'gauges come from the database, the same everywhere.',
      response: 'prometheus',
      errors: [404],
    },
  },
  async ({ db }) => {
    const { contentType, text } = await renderMetrics(await db());
    return new Response(text, { headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' } });
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
