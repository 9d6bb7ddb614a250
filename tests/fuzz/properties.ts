// What every answer of the API must be, whatever it was sent (API.md §1–2): never a 5xx, an
// error always `{ error, details? }` as JSON, and a refused request leaves no trace in the data.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { getDb } from '@/lib/db/client';

export async function expectDocumented(response: Response, label: string): Promise<void> {
  const text = await response.text();
  expect(response.status, `${label} → ${response.status} ${text.slice(0, 300)}`).toBeLessThan(500);
  if (response.status < 400) return;
  expect(response.headers.get('content-type'), label).toMatch(/^application\/json/);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(Object.keys(body).every((key) => key === 'error' || key === 'details'), `${label}: ${text}`).toBe(true);
  expect(typeof body.error, label).toBe('string');
  if ('details' in body) {
    expect(Array.isArray(body.details) && body.details.every((d) => typeof d === 'string'), `${label}: ${text}`).toBe(true);
  }
}

/** Row counts of every table a request can write, and the fixture mission's last change. */
export async function snapshot(missionId: string): Promise<string> {
  const rows = await (await getDb()).execute(sql`
    select (select count(*) from users) u, (select count(*) from missions) m, (select count(*) from mission_events) e,
           (select count(*) from mission_files) f, (select count(*) from passports) p, (select count(*) from settlements) s,
           (select count(*) from agent_earnings) a,
           (select updated_at::text || status::text from missions where id = ${missionId}) x,
           (select string_agg(coalesce(display_name, '') || coalesce(bio, ''), ',') from users) pr`);
  return JSON.stringify((rows as unknown as { rows?: unknown[] }).rows ?? rows);
}
