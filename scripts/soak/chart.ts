// The soak's chart: an SVG of four panels over the run's minutes — throughput, latency (p50, p95,
// p99 of every request), each instance's RSS and heap, and the outboxes with PostgreSQL's connections.
import type { Bucket } from './buckets';

interface Series {
  label: string;
  color: string;
  values: number[];
}

const WIDTH = 900;
const PANEL = 170;
const LEFT = 70;
const RIGHT = 200;
const TOP = 40;
const GAP = 40;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function panel(index: number, title: string, unit: string, series: Series[], minutes: number): string {
  const top = TOP + index * (PANEL + GAP);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const finite = series.flatMap((s) => s.values.filter(Number.isFinite));
  const max = Math.max(1e-9, ...finite) * 1.1;
  const x = (minute: number) => LEFT + (minutes <= 1 ? plotWidth / 2 : ((minute - 1) / (minutes - 1)) * plotWidth);
  const y = (value: number) => top + PANEL - (value / max) * PANEL;
  const parts = [
    `<text x="${LEFT}" y="${top - 8}" font-size="13" font-weight="bold">${escapeXml(title)}</text>`,
    `<rect x="${LEFT}" y="${top}" width="${plotWidth}" height="${PANEL}" fill="none" stroke="#999"/>`,
  ];
  for (let tick = 0; tick <= 4; tick++) {
    const value = (max / 4) * tick;
    parts.push(`<line x1="${LEFT}" x2="${LEFT + plotWidth}" y1="${y(value)}" y2="${y(value)}" stroke="#eee"/>`);
    parts.push(
      `<text x="${LEFT - 6}" y="${y(value) + 4}" font-size="10" text-anchor="end">` +
        `${value >= 100 ? value.toFixed(0) : value.toPrecision(2)}</text>`,
    );
  }
  parts.push(
    `<text x="14" y="${top + PANEL / 2}" font-size="11" transform="rotate(-90 14 ` +
      `${top + PANEL / 2})" text-anchor="middle">${escapeXml(unit)}</text>`,
  );
  const step = Math.max(1, Math.ceil(minutes / 15));
  for (let minute = 1; minute <= minutes; minute += step) {
    parts.push(`<text x="${x(minute)}" y="${top + PANEL + 14}" font-size="10" text-anchor="middle">${minute}</text>`);
  }
  series.forEach((s, i) => {
    const points = s.values
      .map((v, m) => (Number.isFinite(v) ? `${x(m + 1).toFixed(1)},${y(v).toFixed(1)}` : ''))
      .filter(Boolean);
    parts.push(`<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${points.join(' ')}"/>`);
    for (const point of points) {
      const [px, py] = point.split(',');
      parts.push(`<circle cx="${px}" cy="${py}" r="2.5" fill="${s.color}"/>`);
    }
    const ly = top + 14 + i * 16;
    parts.push(
      `<line x1="${WIDTH - RIGHT + 14}" x2="${WIDTH - RIGHT + 34}" y1="${ly - 4}" y2="` +
        `${ly - 4}" stroke="${s.color}" stroke-width="2"/>`,
    );
    parts.push(`<text x="${WIDTH - RIGHT + 40}" y="${ly}" font-size="11">${escapeXml(s.label)}</text>`);
  });
  return parts.join('\n');
}

export function soakChart(buckets: Bucket[], title: string): string {
  const minutes = buckets.length;
  const of = (read: (b: Bucket) => number | undefined) => buckets.map((b) => read(b) ?? NaN);
  const instances = buckets[0]?.resources?.rssMb.length ?? 0;
  const colors = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728'];
  const memory: Series[] = [];
  for (let i = 0; i < instances; i++) {
    memory.push({
      label: `instance ${i + 1} RSS`,
      color: colors[(i * 2) % colors.length]!,
      values: of((b) => b.resources?.rssMb[i]),
    });
    memory.push({
      label: `instance ${i + 1} heap used`,
      color: colors[(i * 2 + 1) % colors.length]!,
      values: of((b) => b.resources?.heapMb[i]),
    });
  }
  const height = TOP + 4 * (PANEL + GAP) + 10;
  const body = [
    panel(
      0,
      'Throughput (every request, both instances)',
      'req/s',
      [{ label: 'req/s', color: '#1f77b4', values: of((b) => b.rps) }],
      minutes,
    ),
    panel(
      1,
      'Latency of every request',
      'ms',
      [
        { label: 'p50', color: '#2ca02c', values: of((b) => b.all.p50) },
        { label: 'p95', color: '#ff7f0e', values: of((b) => b.all.p95) },
        { label: 'p99', color: '#d62728', values: of((b) => b.all.p99) },
      ],
      minutes,
    ),
    panel(2, 'Memory of each instance', 'MB', memory, minutes),
    panel(
      3,
      'Outboxes and PostgreSQL',
      'count',
      [
        { label: 'settlements pending', color: '#9467bd', values: of((b) => b.resources?.settlementsPending) },
        { label: 'webhooks pending', color: '#8c564b', values: of((b) => b.resources?.webhooksPending) },
        { label: 'PostgreSQL connections', color: '#17becf', values: of((b) => b.resources?.pgConnections) },
      ],
      minutes,
    ),
  ];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 ` +
      `0 ${WIDTH} ${height}" font-family="sans-serif">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${LEFT}" y="20" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
    ...body,
    `<text x="${LEFT + (WIDTH - LEFT - RIGHT) / 2}" y="${height - 2}" font-size="11" ` +
      `text-anchor="middle">minute of the run</text>`,
    '</svg>',
    '',
  ].join('\n');
}
