// The query plans of `npm run bench:scale`: every list statement shape as the app runs it
// (listMissions itself, its statements prepared as lib/db/client.ts prepares them), explained by
// PostgreSQL's auto_explain with ANALYZE and BUFFERS, written to .bench/plans/missions-list-<size>.txt
// (not committed: each run writes the plans of its own machine). A plan with a sequential scan on
// missions fails the run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import type { Config } from '../../lib/config';
import type { Db } from '../../lib/db/client';
import * as schema from '../../lib/db/schema';
import { listMissions } from '../../lib/board/list';
import { listQuerySchema } from '../../lib/missions/schemas';
import { ANONYMOUS, type Viewer } from '../../lib/missions/visibility';

interface Fixtures {
  client: { id: string };
  agent: { id: string };
  deepCursor: string;
  deepRewardCursor: string;
}

interface Shape {
  name: string;
  /** The query string as a client sends it (the cursor abbreviated in the report). */
  query: string;
  viewer: Viewer;
}

// A prepared statement's plan settles after five executions (PostgreSQL's plan cache then weighs
// a generic plan against the custom ones): the eighth is the plan the app keeps running.
const RUNS = 8;
const PLANS_DIR = '.bench/plans';

function shapes(f: Fixtures, terms: { common: string; rare: string }): Shape[] {
  const client: Viewer = { kind: 'user', id: f.client.id, role: 'CLIENT' };
  const agent: Viewer = { kind: 'user', id: f.agent.id, role: 'AGENT' };
  return [
    { name: 'board, default sort (bumped)', query: '', viewer: ANONYMOUS },
    { name: 'board, sort=reward', query: 'sort=reward', viewer: ANONYMOUS },
    { name: 'board, sort=deadline', query: 'sort=deadline', viewer: ANONYMOUS },
    { name: 'board, sort=created', query: 'sort=created', viewer: ANONYMOUS },
    { name: 'board, status=OPEN', query: 'status=OPEN', viewer: ANONYMOUS },
    { name: 'category', query: 'category=code', viewer: ANONYMOUS },
    { name: 'category, sort=reward', query: 'category=code&sort=reward', viewer: ANONYMOUS },
    { name: 'tag', query: 'tag=tag7', viewer: ANONYMOUS },
    { name: 'minReward', query: 'minReward=900000000', viewer: ANONYMOUS },
    { name: 'deep page (cursor half-way down the board)', query: `cursor=${f.deepCursor}`, viewer: ANONYMOUS },
    { name: 'deep page, sort=reward', query: `sort=reward&cursor=${f.deepRewardCursor}`, viewer: ANONYMOUS },
    // The common term first and the rare one after it on the same connection: they share one
    // prepared statement, so the rare term runs whatever plan the common one settled on.
    { name: `search, common term (q=${terms.common}, 1 mission in 5)`, query: `q=${terms.common}`, viewer: ANONYMOUS },
    { name: `search, rare term (q=${terms.rare}, 1 match)`, query: `q=${terms.rare}`, viewer: ANONYMOUS },
    { name: 'search, no match (q=zebra)', query: 'q=zebra', viewer: ANONYMOUS },
    { name: 'search, common term, sort=reward', query: `q=${terms.common}&sort=reward`, viewer: ANONYMOUS },
    { name: 'search, rare term, sort=reward', query: `q=${terms.rare}&sort=reward`, viewer: ANONYMOUS },
    { name: 'search, common term, deep page', query: `q=${terms.common}&cursor=${f.deepCursor}`, viewer: ANONYMOUS },
    { name: 'mine=client', query: 'mine=client', viewer: client },
    { name: 'mine=client, status=COMPLETED', query: 'mine=client&status=COMPLETED', viewer: client },
    { name: 'mine=client, sort=reward', query: 'mine=client&sort=reward', viewer: client },
    { name: 'mine=agent', query: 'mine=agent', viewer: agent },
  ];
}

/** Lines of a plan, without auto_explain's heading and query text. */
function planOf(notice: string): { sql: string; plan: string } {
  const lines = notice.split('\n');
  const start = lines.findIndex((line) => /\(cost=[0-9.]+\.\.[0-9.]+ rows=/.test(line));
  const text = lines
    .slice(0, start)
    .join('\n')
    .replace(/^duration:.*?plan:\s*Query Text:\s*/s, '');
  const from = text.search(/from "missions" where/i);
  return { sql: text.slice(from).replace(/\s+/g, ' ').trim(), plan: lines.slice(start).join('\n').trimEnd() };
}

/**
 * One connection, its statements prepared as the app prepares them (lib/db/client.ts), so the plan cache behaves as it
 * does there.
 */
function appDb(databaseUrl: string, notices: string[] = []) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: (notice) => notices.push(String(notice.message)) });
  const prepared = new Proxy(sql, {
    get: (target, property, receiver) =>
      property === 'unsafe'
        ? (query: string, params?: unknown[], options?: object) =>
            target.unsafe(query, params as never, { ...options, prepare: true })
        : Reflect.get(target, property, receiver),
  });
  return { sql, db: drizzle(prepared, { schema }) as unknown as Db };
}

export interface ShapeTime {
  name: string;
  median: number;
  p95: number;
}

/**
 * Each shape's listMissions call timed one at a time on one connection (ms): what a page costs
 * the database and the round trip, without autocannon's 20 connections queueing on a busy machine.
 */
export async function timeShapes(
  databaseUrl: string,
  f: Fixtures,
  terms: { common: string; rare: string },
  runs = 200,
): Promise<ShapeTime[]> {
  const { sql, db } = appDb(databaseUrl);
  const times: ShapeTime[] = [];
  try {
    for (const shape of shapes(f, terms)) {
      const query = listQuerySchema.parse(Object.fromEntries(new URLSearchParams(shape.query)));
      const took: number[] = [];
      for (let run = 0; run < runs + 10; run++) {
        const started = performance.now();
        await listMissions(db, {} as Config, query, shape.viewer, new Date());
        if (run >= 10) took.push(performance.now() - started);
      }
      took.sort((a, b) => a - b);
      times.push({ name: shape.name, median: took[Math.floor(runs / 2)]!, p95: took[Math.floor(runs * 0.95)]! });
    }
  } finally {
    await sql.end();
  }
  return times;
}

export async function writePlans(
  databaseUrl: string,
  size: string,
  f: Fixtures,
  terms: { common: string; rare: string },
): Promise<void> {
  const notices: string[] = [];
  const { sql, db } = appDb(databaseUrl, notices);
  const sections: string[] = [];
  const seqScans: string[] = [];
  try {
    await sql.unsafe(`load 'auto_explain'`);
    for (const setting of [
      'log_min_duration = 0',
      'log_analyze = on',
      'log_buffers = on',
      "log_level = 'notice'",
      'log_format = text',
    ]) {
      await sql.unsafe(`set auto_explain.${setting}`);
    }
    for (const shape of shapes(f, terms)) {
      const query = listQuerySchema.parse(Object.fromEntries(new URLSearchParams(shape.query)));
      for (let run = 0; run < RUNS; run++) {
        notices.length = 0;
        await listMissions(db, {} as Config, query, shape.viewer, new Date());
      }
      // The list statement: it builds missions' JSON, or on the board reads the stored one.
      const notice = notices.filter((n) => /json_build_object|"listing"/.test(n)).at(-1);
      if (!notice) throw new Error(`${shape.name}: no plan reported`);
      const { sql: statement, plan } = planOf(notice);
      if (/Seq Scan on missions\b/.test(plan)) seqScans.push(shape.name);
      const shown = shape.query.replace(/cursor=[^&]+/, 'cursor=…');
      sections.push(`== ${shape.name}: GET /api/missions${shown ? `?${shown}` : ''} ==\n\n${statement}\n\n${plan}\n`);
      console.log(
        `  plan: ${shape.name}: ${plan.match(/Execution Time|actual time=[0-9.]+\.\.([0-9.]+)/)?.[1] ?? ''} ms`,
      );
    }
  } finally {
    await sql.end();
  }
  const file = writePlanFile(size, sections);
  if (seqScans.length > 0) throw new Error(`Seq Scan on missions in the plan of: ${seqScans.join('; ')} (see ${file})`);
  console.log(`plans of ${sections.length} shapes written to ${file}; no sequential scan on missions`);
}

/** Writes the plans of one size into their generated file; answers its path. */
function writePlanFile(size: string, sections: string[]): string {
  const header = [
    `# GENERATED by \`npm run bench:scale\` (SCALE_STEPS=plans SCALE_SIZES=${size}) on ` +
      `${new Date().toISOString().slice(0, 10)}. Do not edit.`,
    `# The plan of every list statement shape at ${size.toUpperCase()} missions: listMissions itself, its statements`,
    `# prepared as the app prepares them, run ${RUNS} times on one connection; PostgreSQL's auto_explain`,
    '# (ANALYZE, BUFFERS) reports the last run, the plan the plan cache settled on. The select list',
    '# (the mission JSON, lib/board/present.ts) is the same in every statement and left out; the',
    '# search shapes run in the order shown on the same connection. The run fails if any plan has a',
    '# sequential scan on missions.',
  ];
  const file = `${PLANS_DIR}/missions-list-${size}.txt`;
  mkdirSync(PLANS_DIR, { recursive: true });
  writeFileSync(file, [...header, '', sections.join('\n')].join('\n'));
  return file;
}
