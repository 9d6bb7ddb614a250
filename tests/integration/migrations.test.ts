// Upgrading a live database (issue 15): a database at the schema before this wave's migrations,
// with users, missions and settlements in it, migrates to the newest schema and keeps every row —
// new columns take their defaults. Runs on PGlite, and on PostgreSQL too with TEST_DATABASE_URL.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';

const DRIZZLE = join(process.cwd(), 'drizzle');
// The schema this wave started from: everything up to the idempotency fingerprint (0004).
const PREVIOUS = '0004_idempotency_fingerprint';

/** A copy of drizzle/ whose journal stops at `lastTag`: the migrations of an older release. */
function migrationsUpTo(lastTag: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'taskmarket-migrations-')), 'drizzle');
  cpSync(DRIZZLE, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((entry) => entry.tag === lastTag);
  expect(end).toBeGreaterThanOrEqual(0);
  journal.entries = journal.entries.slice(0, end + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

type Migrate = (folder: string) => Promise<void>;
type Query = (text: string) => Promise<Record<string, unknown>[]>;

async function upgradeKeepsRows(migrate: Migrate, query: Query) {
  const older = migrationsUpTo(PREVIOUS);
  try {
    await migrate(older);
    await query(`insert into users (id, wallet_address, role) values
      ('11111111-1111-4111-8111-111111111111', '0x1111111111111111111111111111111111111111', 'CLIENT'),
      ('22222222-2222-4222-8222-222222222222', '0x2222222222222222222222222222222222222222', 'AGENT')`);
    await query(`insert into missions (id, client_id, agent_id, title, description, category, reward, fee_bps,
        deadline, status, listed_at, created_at, updated_at, accepted_at)
      values ('33333333-3333-4333-8333-333333333333', '11111111-1111-4111-8111-111111111111',
        '22222222-2222-4222-8222-222222222222', 'Label photos', 'Boxes around products.', 'data', 25000000, 0,
        now() + interval '7 days', 'ACCEPTED', now(), now(), now(), now()),
      ('44444444-4444-4444-8444-444444444444', '11111111-1111-4111-8111-111111111111', null,
        'Transcribe audio', 'Ten minutes of speech.', 'audio', 5000000, 0,
        now() + interval '7 days', 'OPEN', now(), now(), now(), null)`);
    await query(`insert into settlements (kind, mission_id, user_id, beneficiary, task_id, amount, status)
      values ('RELEASE', '33333333-3333-4333-8333-333333333333', '22222222-2222-4222-8222-222222222222',
        '0x2222222222222222222222222222222222222222', 7, 25000000, 'FAILED')`);

    await migrate(DRIZZLE);

    expect(await query(`select wallet_address, role from users order by wallet_address`)).toEqual([
      { wallet_address: '0x1111111111111111111111111111111111111111', role: 'CLIENT' },
      { wallet_address: '0x2222222222222222222222222222222222222222', role: 'AGENT' },
    ]);
    expect(await query(`select title, status, assignment_mode from missions order by title`)).toEqual([
      { title: 'Label photos', status: 'ACCEPTED', assignment_mode: 'FIRST_COME' },
      { title: 'Transcribe audio', status: 'OPEN', assignment_mode: 'FIRST_COME' },
    ]);
    // The board's stored view is written for the OPEN mission that was already there, and only for it.
    expect(
      await query(
        `select title, listing::json ->> 'title' as listed, listing::json -> 'client' ->> ` +
          `'walletAddress' as client from missions order by title`,
      ),
    ).toEqual([
      { title: 'Label photos', listed: null, client: null },
      { title: 'Transcribe audio', listed: 'Transcribe audio', client: '0x1111111111111111111111111111111111111111' },
    ]);
    expect(await query(`select kind, status, amount::text as amount from settlements`)).toEqual([
      { kind: 'RELEASE', status: 'FAILED', amount: '25000000' },
    ]);
    // The new tables are there, empty, and take rows.
    expect(await query(`select count(*)::int as n from mission_applications`)).toEqual([{ n: 0 }]);
    await query(`insert into mission_comments (mission_id, author_id, body, created_at)
      values ('33333333-3333-4333-8333-333333333333', '11111111-1111-4111-8111-111111111111', 'Still on track?',
        now())`);
    expect(await query(`select body from mission_comments`)).toEqual([{ body: 'Still on track?' }]);
  } finally {
    rmSync(join(older, '..'), { recursive: true, force: true });
  }
}

/** A fresh empty database of the backend this run uses: PostgreSQL with TEST_DATABASE_URL, else PGlite. */
async function freshDatabase(): Promise<{ migrate: Migrate; query: Query; close(): Promise<void> }> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) {
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    const client = await PGlite.create();
    const db = drizzle(client);
    return {
      migrate: (migrationsFolder) => migrate(db, { migrationsFolder }),
      query: async (text) => (await db.execute(sql.raw(text))).rows as Record<string, unknown>[],
      close: () => client.close(),
    };
  }
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  const name = `taskmarket_upgrade_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
  const db = drizzle(client);
  return {
    migrate: (migrationsFolder) => migrate(db, { migrationsFolder }),
    query: async (text) => [...(await client.unsafe(text))] as Record<string, unknown>[],
    close: async () => {
      await client.end();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

describe('migrations', () => {
  test('behavior: a database at the previous schema upgrades to the newest and keeps its rows', async () => {
    const database = await freshDatabase();
    try {
      await upgradeKeepsRows(database.migrate, database.query);
    } finally {
      await database.close();
    }
  });
});
