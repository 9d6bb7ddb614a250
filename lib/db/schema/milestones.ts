// A mission's milestones (docs/api.md#milestones): 2–10 parts of the reward, numbered from 1, each
// submitted, reviewed, contested and approved on its own and released by the escrow's releasePart.
// The mission row keeps which one is at hand (missions.milestone) and what was released (missions.released);
// each row here keeps its own status, review window and contest rounds.
import { integer, numeric, pgEnum, pgTable, smallint, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { missions } from './missions';

const at = (name: string) => timestamp(name, { withTimezone: true });
const amount = (name: string) => numeric(name, { precision: 78, scale: 0 });

export const MILESTONE_STATUSES = ['PENDING', 'SUBMITTED', 'CONTESTED', 'DISPUTED', 'APPROVED'] as const;
export const milestoneStatusEnum = pgEnum('milestone_status', MILESTONE_STATUSES);

export const missionMilestones = pgTable(
  'mission_milestones',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    missionId: uuid('mission_id')
      .notNull()
      .references(() => missions.id, { onDelete: 'cascade' }),
    number: smallint('number').notNull(),
    title: text('title').notNull(),
    amount: amount('amount').notNull(),
    criteria: text('criteria'),
    status: milestoneStatusEnum('status').notNull().default('PENDING'),
    // What releasePart paid out of the escrow for it (gross, fee included): its amount once APPROVED.
    releasedAmount: amount('released_amount').notNull().default('0'),
    reviewDeadline: at('review_deadline'),
    contestCount: integer('contest_count').notNull().default(0),
    submittedAt: at('submitted_at'),
    approvedAt: at('approved_at'),
  },
  (t) => [unique('mission_milestones_number_unique').on(t.missionId, t.number)],
);

export type MilestoneRow = typeof missionMilestones.$inferSelect;
export type MilestoneStatus = (typeof MILESTONE_STATUSES)[number];
