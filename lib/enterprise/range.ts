// The analytics date range: calendar days in UTC, `from` and `to` both inclusive, at most 366 days
// (a leap year), defaulting to the 30 days that end today. Pure: today comes in as `now`.
import { ApiError } from '../errors';
import type { AnalyticsQuery } from './schemas';

export const MAX_RANGE_DAYS = 366;
export const DEFAULT_RANGE_DAYS = 30;
const DAY_MS = 86_400_000;

export interface AnalyticsRange {
  from: string;
  to: string;
  interval: AnalyticsQuery['interval'];
  /** Instants bounding the range: [start, end). */
  start: Date;
  end: Date;
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const midnight = (day: string) => new Date(`${day}T00:00:00.000Z`);

export function resolveRange(query: AnalyticsQuery, now: Date): AnalyticsRange {
  const to = query.to ?? dayOf(now);
  const from = query.from ?? dayOf(new Date(midnight(to).getTime() - (DEFAULT_RANGE_DAYS - 1) * DAY_MS));
  const start = midnight(from);
  const end = new Date(midnight(to).getTime() + DAY_MS);
  const days = Math.round((end.getTime() - start.getTime()) / DAY_MS);
  if (days < 1) throw new ApiError(400, 'Validation failed', ['to: must not be before from']);
  if (days > MAX_RANGE_DAYS)
    throw new ApiError(400, 'Validation failed', [`to: the range is at most ${MAX_RANGE_DAYS} days`]);
  return { from, to, interval: query.interval, start, end };
}
