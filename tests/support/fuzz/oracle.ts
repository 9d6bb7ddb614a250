// What every answer of the API must be, whatever it was sent (docs/api.md#conventions, #errors), and the data a refused
// request must leave as it was: never a 5xx; an error is `{ error, details? }` and nothing else,
// as JSON, with a status of the table of docs/api.md#errors; a 429 says when to come back; no internals leak.
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { getDb } from '@/lib/db/client';
import { missions } from '@/lib/db/schema';

// docs/api.md#errors, plus 422: the Idempotency-Key of a create reused for a different request
// (docs/api.md#idempotency), and 405: a method the route does not support (docs/api.md#conventions).
const ERROR_STATUSES = new Set([400, 401, 403, 404, 405, 409, 413, 415, 422, 429, 503]);
// A stack frame, a SQL fragment, a driver or file-system message: none of it is for the caller.
// One pattern, written in three parts so its lines stay short.
const LEAK = new RegExp(
  /\bat \S+ \(|node_modules|\.ts:\d+|/.source +
    /\b(select|insert into|update \S+ set|delete from)\b.*\b(from|where|values)\b|/.source +
    /violates|relation "|ECONN|ENOENT|\/tmp\//.source,
  'i',
);

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** Reads the response and checks the contract; answers it for further checks. */
export async function expectDocumented(
  response: Response,
  label: string,
  options: { binaryOk?: boolean } = {},
): Promise<Answer> {
  const text = await response.text();
  const { status, headers } = response;
  const where = `${label} → ${status} ${text.slice(0, 400)}`;
  expect(status, where).toBeLessThan(500);
  const type = headers.get('content-type') ?? '';
  if (status < 400) {
    if (options.binaryOk || status === 204 || status === 303) return { status, headers, body: text, text };
    expect(type, where).toMatch(/^application\/json\b/);
    return { status, headers, body: JSON.parse(text), text };
  }
  expect(type, where).toMatch(/^application\/json\b/);
  let body: unknown;
  expect(() => (body = JSON.parse(text)), where).not.toThrow();
  expect(body !== null && typeof body === 'object' && !Array.isArray(body), where).toBe(true);
  const fields = body as Record<string, unknown>;
  expect(LEAK.test(text), `${where}: leaks internals`).toBe(false);
  // The MCP transport answers a malformed message in JSON-RPC's own shape (MCP Streamable HTTP).
  if (/^\w+ \/api\/mcp\b/.test(label) && 'jsonrpc' in fields) {
    expect([400, 404, 406, 415], where).toContain(status);
    expect(typeof (fields.error as { message?: unknown } | undefined)?.message, where).toBe('string');
    return { status, headers, body, text };
  }
  expect(ERROR_STATUSES.has(status), `${where}: not a status of docs/api.md#errors`).toBe(true);
  // OAuth endpoints answer OAuth's `{ error: code, error_description }` (RFC 6749 §5.2, RFC 7591 §3.2.2).
  const extra = /^\w+ \/api\/oauth\//.test(label) ? ['error_description'] : [];
  expect(
    Object.keys(fields).filter((key) => key !== 'error' && key !== 'details' && !extra.includes(key)),
    where,
  ).toEqual([]);
  expect(typeof fields.error === 'string' && fields.error.length > 0, where).toBe(true);
  if ('details' in fields) {
    expect(Array.isArray(fields.details) && fields.details.every((d) => typeof d === 'string'), where).toBe(true);
  }
  if (status === 429 || status === 503)
    expect(headers.get('retry-after'), `${where}: no Retry-After`).toMatch(/^[0-9]+$/);
  if (status === 405) expect(headers.get('allow'), `${where}: no Allow`).toMatch(/^[A-Z]+(, [A-Z]+)*$/);
  return { status, headers, body, text };
}

const rowsOf = (result: unknown): Record<string, unknown>[] =>
  (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])) as Record<string, unknown>[];

const idList = (ids: string[]) =>
  ids.length === 0
    ? sql`(null::uuid)`
    : sql`(${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`;

/**
 * The data a refused request must leave as it was, in one round trip: the row count of every table
 * a request can write (the cheap global check), and exactly — every column — the given missions
 * with their events, contest rounds and files, and the given users with their passports.
 */
export async function stateOf(watch: { missions?: string[]; users?: string[] } = {}): Promise<string> {
  if (process.env.FUZZ_NOSTATE) return '';
  const m = idList(watch.missions ?? []);
  const u = idList(watch.users ?? []);
  const result = await (await getDb()).execute(sql`
    select json_build_object(
      'counts', json_build_array(
        (select count(*) from users), (select count(*) from passports), (select count(*) from missions),
        (select count(*) from mission_events), (select count(*) from mission_files), (select count(*) from file_blobs),
        (select count(*) from mission_contests), (select count(*) from agent_earnings),
        (select count(*) from settlements)),
      'missions', (select json_agg(x order by x.id) from missions x where x.id in ${m}),
      'events', (select json_agg(x order by x.id) from mission_events x where x.mission_id in ${m}),
      'contests', (select json_agg(x order by x.id) from mission_contests x where x.mission_id in ${m}),
      'files', (select json_agg(x order by x.id) from mission_files x where x.mission_id in ${m}),
      'users', (select json_agg(x order by x.id) from users x where x.id in ${u}),
      'passports', (select json_agg(x order by x.user_id) from passports x where x.user_id in ${u})
    )::text as state`);
  return String(rowsOf(result)[0]!.state);
}

export async function missionCountOf(clientId: string): Promise<number> {
  const [row] = await (await getDb())
    .select({ n: sql<number>`count(*)::int` })
    .from(missions)
    .where(eq(missions.clientId, clientId));
  return row!.n;
}

// FUZZ_STATS=1 prints, per property, how many cases ended in each status: a property whose cases
// all stop at the first check (401, 400 on the body) is not testing what it claims to.
const tally = new Map<string, Map<number, number>>();

export function countStatus(property: string, status: number): void {
  const counts = tally.get(property) ?? new Map<number, number>();
  counts.set(status, (counts.get(status) ?? 0) + 1);
  tally.set(property, counts);
}

export function printStatusCounts(): void {
  if (!process.env.FUZZ_STATS) return;
  const lines = [...tally].map(
    ([property, counts]) =>
      `${property}: ${[...counts]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
  );
  console.log(`statuses per property\n${lines.join('\n')}`);
}
