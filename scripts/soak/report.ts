// The soak's report as Markdown: the verdict, one row per minute (throughput, latency, errors,
// memory, connections, KV keys, outboxes), and each endpoint's latency minute by minute.
import type { Bucket, Check } from './buckets';

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 10 ? 1 : 0) : '–');
const mb = (values: number[] | undefined) =>
  (values ?? []).map((v) => (Number.isFinite(v) ? v.toFixed(0) : '–')).join(' / ');
const cores = (value: number | undefined) => (value !== undefined && Number.isFinite(value) ? value.toFixed(2) : '–');
const perRequest = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : '–');
const cpuLine = (b: Bucket) =>
  Object.entries(b.cpuCores)
    .map(([part, used]) => `${part} ${cores(used)}`)
    .join(', ');

export function minuteLine(b: Bucket): string {
  const r = b.resources;
  return (
    `minute ${String(b.minute).padStart(2)}: ${b.rps.toFixed(1)} req/s, p50/p95/p99 ` +
    `${ms(b.all.p50)}/${ms(b.all.p95)}/${ms(b.all.p99)} ms, 5xx ${b.all.errors5xx}, ` +
    `unanswered ${b.noAnswer}, 4xx ${b.status4xx}, RSS ${mb(r?.rssMb)} MB, heap ` +
    `${mb(r?.heapMb)} MB, PostgreSQL connections ${r?.pgConnections ?? '–'}, KV keys ` +
    `${r?.kvKeys ?? '–'}, outbox ` +
    `${r ? `${r.settlementsPending} settlements + ${r.webhooksPending} webhooks` : '–'}; CPU ` +
    `cores: ${cpuLine(b)}; PostgreSQL: ${perRequest(b.pgSeqReadPerRequest)} rows read by ` +
    `sequential scans a request, ${b.pgDead} dead rows`
  );
}

export function soakReport(options: {
  buckets: Bucket[];
  checks: Check[];
  header: string[];
  visits: Record<string, { made: number; failed: number; skipped: number }>;
  failures: string[];
  webhooks: { delivered: number; duplicates: number; byEvent: Record<string, number> };
}): string {
  const { buckets, checks } = options;
  const parts = [...new Set(buckets.flatMap((b) => Object.keys(b.cpuCores)))];
  const lines = [
    ...options.header,
    '',
    '| rule | measured | pass |',
    '|---|---|---|',
    ...checks.map(
      (c) => `| ${c.rule} | ${c.measured} | ${c.pass === undefined ? 'not judged' : c.pass ? 'yes' : '**NO**'} |`,
    ),
    '',
    '| minute | req/s | p50 ms | p95 ms | p99 ms | 5xx | 4xx | RSS MB (each instance, mean ' +
      'of the minute) | heap MB (last sample) | PG conns | PG tx a request | KV keys | ' +
      'settlements pending | webhooks pending |',
    '|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|---:|---:|',
    ...buckets.map((b) => {
      const r = b.resources;
      return (
        `| ${b.minute} | ${b.rps.toFixed(1)} | ${ms(b.all.p50)} | ${ms(b.all.p95)} | ` +
        `${ms(b.all.p99)} | ${b.all.errors5xx + b.noAnswer} | ${b.status4xx} | ` +
        `${mb(b.rssMeanMb)} | ${mb(r?.heapMb)} | ${r?.pgConnections ?? '–'} | ` +
        `${Number.isFinite(b.pgPerRequest) ? b.pgPerRequest.toFixed(2) : '–'} | ` +
        `${r?.kvKeys ?? '–'} | ${r?.settlementsPending ?? '–'} | ${r?.webhooksPending ?? '–'} |`
      );
    }),
    '',
    '### Where the CPU went (cores used in the minute; the machine has 2) and what PostgreSQL read',
    '',
    `| minute | ${parts.join(' | ')} | rows read by sequential scans a request | dead rows |`,
    `|---:|${parts.map(() => '---:').join('|')}|---:|---:|`,
    ...buckets.map(
      (b) =>
        `| ${b.minute} | ${parts.map((part) => cores(b.cpuCores[part])).join(' | ')} | ` +
        `${perRequest(b.pgSeqReadPerRequest)} | ${b.pgDead} |`,
    ),
    '',
    `Visits: ${Object.entries(options.visits)
      .map(
        ([kind, v]) =>
          `${kind} ${v.made} (${v.failed} failed` +
          `${v.skipped ? `, ${v.skipped} not made: every party busy or at its hourly limit` : ''})`,
      )
      .join('; ')}.`,
    `Webhooks received: ${options.webhooks.delivered} (${options.webhooks.duplicates} redelivered) — ${Object.entries(
      options.webhooks.byEvent,
    )
      .map(([e, n]) => `${e} ${n}`)
      .join(', ')}.`,
    ...(options.failures.length
      ? ['', 'First failed visits:', ...options.failures.slice(0, 20).map((f) => `- ${f}`)]
      : []),
    '',
    '### Each endpoint, minute by minute (count, p50 / p95 / p99 ms, 5xx)',
    '',
    `| endpoint | ${buckets.map((b) => `m${b.minute}`).join(' | ')} |`,
    `|---|${buckets.map(() => '---').join('|')}|`,
    ...[...new Set(buckets.flatMap((b) => Object.keys(b.endpoints)))].sort().map(
      (name) =>
        `| ${name} | ${buckets
          .map((b) => {
            const e = b.endpoints[name];
            return e
              ? `${e.count}: ${ms(e.p50)} / ${ms(e.p95)} / ${ms(e.p99)}${e.errors5xx ? `, **${e.errors5xx} 5xx**` : ''}`
              : '';
          })
          .join(' | ')} |`,
    ),
    '',
  ];
  return lines.join('\n');
}
