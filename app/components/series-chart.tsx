// A small SVG bar chart of the analytics time series: missions posted and completed per
// interval. The same numbers follow in a table, for screen readers and for exact values.
import type { Analytics } from '@/lib/enterprise/schemas';
import styles from './series-chart.module.css';

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 32 };

export function SeriesChart({ series }: { series: Analytics['series'] }) {
  const max = Math.max(1, ...series.flatMap((b) => [b.created, b.completed]));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, series.length);
  const bar = Math.max(1, Math.min(18, slot / 2 - 2));
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const labelEvery = Math.ceil(series.length / 8);
  return (
    <figure className={styles.figure}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="series-title"
        className={styles.chart}
        data-testid="series-chart"
      >
        <title id="series-title">
          Missions posted and completed per interval, from {series[0]?.start ?? '—'} to {series.at(-1)?.start ?? '—'}
        </title>
        {ticksUpTo(max).map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} className={styles.grid} />
            <text x={PAD.left - 4} y={y(tick) + 4} textAnchor="end" className={styles.axis}>
              {tick}
            </text>
          </g>
        ))}
        {series.map((b, i) => {
          const x = PAD.left + i * slot + slot / 2;
          return (
            <g key={b.start}>
              <rect
                x={x - bar - 1}
                y={y(b.created)}
                width={bar}
                height={y(0) - y(b.created)}
                className={styles.created}
              />
              <rect
                x={x + 1}
                y={y(b.completed)}
                width={bar}
                height={y(0) - y(b.completed)}
                className={styles.completed}
              />
              {i % labelEvery === 0 && (
                <text x={x} y={HEIGHT - 8} textAnchor="middle" className={styles.axis}>
                  {b.start.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="row">
        <span>
          <span className={`${styles.key} ${styles.created}`} /> Posted
        </span>
        <span>
          <span className={`${styles.key} ${styles.completed}`} /> Completed
        </span>
      </figcaption>
      <details>
        <summary>Show the numbers</summary>
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">From</th>
                <th scope="col">Posted</th>
                <th scope="col">Completed</th>
              </tr>
            </thead>
            <tbody>
              {series.map((b) => (
                <tr key={b.start}>
                  <td>{b.start}</td>
                  <td>{b.created}</td>
                  <td>{b.completed}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/** Whole-number gridlines: counts have no halves. */
function ticksUpTo(max: number): number[] {
  return [...new Set([0, Math.round(max / 2), max])];
}
