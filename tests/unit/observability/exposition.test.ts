// The text-format check that GET /api/metrics' test relies on (tests/support/exposition.ts) passes what
// prom-client writes and refuses what Prometheus would not scrape: a check that cannot fail checks nothing.
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, test } from 'vitest';
import { parseExposition } from '../../support/exposition';

describe('the exposition check', () => {
  test('default: what prom-client writes parses, by family and type', async () => {
    const registry = new Registry();
    const requests = new Counter({ name: 't_requests_total', help: 'Requests.', labelNames: ['route'], registers: [] });
    const latency = new Histogram({ name: 't_seconds', help: 'Latency.', buckets: [0.1, 1], registers: [] });
    registry.registerMetric(requests);
    registry.registerMetric(latency);
    requests.inc({ route: '/api/"x"\\y' });
    latency.observe(0.5);
    const metrics = await parseExposition(await registry.metrics());
    expect(metrics.t_requests_total).toMatchObject({ type: 'counter', data: [{ value: 1 }] });
    expect(metrics.t_seconds).toMatchObject({ type: 'histogram', data: [{ count: 1, buckets: { '+Inf': 1 } }] });
  });

  test.each([
    ['garbage', 'this is not { metrics\n'],
    ['a value that is no number', '# HELP g G.\n# TYPE g gauge\ng abc\n'],
    ['an unclosed label set', '# HELP g G.\n# TYPE g gauge\ng{x="1} 3\n'],
    ['a histogram without +Inf', '# HELP h H.\n# TYPE h histogram\nh_bucket{le="0.1"} 1\nh_sum 1\nh_count 1\n'],
    ['a series twice', '# HELP g G.\n# TYPE g gauge\ng{x="1"} 3\ng{x="1"} 4\n'],
    ['a family without TYPE', '# HELP g G.\ng 3\n'],
    ['a family without HELP', '# TYPE g gauge\ng 3\n'],
    ['a name that is no metric name', '# HELP 1g G.\n# TYPE 1g gauge\n1g 3\n'],
    ['no final newline', '# HELP g G.\n# TYPE g gauge\ng 3'],
  ])('error: %s is refused', async (_what, text) => {
    await expect(parseExposition(text)).rejects.toThrow();
  });
});
