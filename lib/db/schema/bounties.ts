// Bounty entries (docs/api.md#bounties): one per agent and bounty, replaceable until the deadline; its files
// are mission_files of kind ENTRY, round = the entry's version. The award writes each winner's
// place and amount here, and an entrant's one contest of the award.
import {
  index,
  integer,
  json,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { type CheckResultItem, missions, type SelfCheckItem } from './missions';
import { users } from './users';

const at = (name: string) => timestamp(name, { withTimezone: true });

export const bountyEntries = pgTable(
  'bounty_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    missionId: uuid('mission_id')
      .notNull()
      .references(() => missions.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => users.id),
    note: text('note').notNull(),
    // docs/api.md#criteria: the entrant's self-check against the mission's criteria.
    selfCheck: json('self_check').$type<SelfCheckItem[]>(),
    // docs/api.md#checked-criteria: what the machine found of this version of the entry.
    checks: json('checks').$type<CheckResultItem[]>(),
    // 1 for the first entry, + 1 for each replacement: names the files of the current one.
    version: integer('version').notNull().default(1),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    // Set by the award: 1-based place and the amount it pays (base units), null for the rest.
    place: smallint('place'),
    amount: numeric('amount', { precision: 78, scale: 0 }),
    contestReason: text('contest_reason'),
    contestedAt: at('contested_at'),
  },
  (t) => [
    // One entry an agent, whatever a retry or a race does.
    uniqueIndex('bounty_entries_once_idx').on(t.missionId, t.agentId),
    index('bounty_entries_page_idx').on(t.missionId, t.createdAt, t.id),
    // Agents' success rates: the bounties each agent entered count as missions it took on.
    index('bounty_entries_agent_idx').on(t.agentId, t.missionId),
  ],
);

export type BountyEntryRow = typeof bountyEntries.$inferSelect;
