// A person's yes (docs/api.md#confirmations): releases a delegated token asked for beyond its grant's
// release limit, waiting for the person, and the releases each grant made at once (its rolling 24 h).
import { index, jsonb, numeric, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { grants } from './grants';
import { missions } from './missions';
import { users } from './users';

const at = (name: string) => timestamp(name, { withTimezone: true });
const amount = (name: string) => numeric(name, { precision: 78, scale: 0 });

export const confirmationStatusEnum = pgEnum('confirmation_status', ['PENDING', 'APPROVED', 'DENIED']);

export const confirmations = pgTable(
  'confirmations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // The person whose yes it waits for, and the grant whose token asked.
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    grantId: uuid('grant_id')
      .notNull()
      .references(() => grants.id, { onDelete: 'cascade' }),
    missionId: uuid('mission_id')
      .notNull()
      .references(() => missions.id, { onDelete: 'cascade' }),
    // 'approve' (a delivery) or 'award' (a bounty), with the award's body as it was sent.
    action: text('action').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    amount: amount('amount').notNull(),
    status: confirmationStatusEnum('status').notNull().default('PENDING'),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    decidedAt: at('decided_at'),
  },
  (t) => [
    index('confirmations_user_idx').on(t.userId, t.status, t.createdAt),
    index('confirmations_grant_idx').on(t.grantId, t.status),
  ],
);

export const grantReleases = pgTable(
  'grant_releases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    grantId: uuid('grant_id')
      .notNull()
      .references(() => grants.id, { onDelete: 'cascade' }),
    missionId: uuid('mission_id')
      .notNull()
      .references(() => missions.id, { onDelete: 'cascade' }),
    amount: amount('amount').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('grant_releases_grant_idx').on(t.grantId, t.createdAt)],
);
