// A person's yes (docs/api.md#confirmations): releases a delegated token asked for beyond its grant's
// release limit, waiting for the person, and the releases each grant made at once (its rolling 24 h).
import { index, jsonb, numeric, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { grants } from './grants';
import { missions } from './missions';
import { users } from './users';

/**
 * What a person confirms (docs/api.md#confirmation-terms; lib/confirmations/terms.ts makes them, and
 * their canonical form and hash).
 */
export interface ConfirmationTerms {
  // 'settle': accepting a settlement offer (docs/api.md#settlement-offers), which releases its agentAmount.
  action: 'approve' | 'award' | 'settle';
  /** The agent's wallet (lowercase) of an approve; null for an award. */
  agent: string | null;
  agentId: string | null;
  /** The mission's assignment counter: a new agent, or the same one again after a withdrawal, is another. */
  assignment: number;
  missionId: string;
  reward: string;
  /** The submission being approved (the mission's submissionCount). */
  round: number;
  /** What the escrow task holds (base units), read from the chain; null without an escrow. */
  taskAmount: string | null;
  /** An award's winners in place order (lowercase); null for an approve. */
  winners: string[] | null;
  /** A settle's offer and the agent's part it releases (base units); absent on the other actions. */
  offerId?: string | null;
  agentAmount?: string | null;
}

const at = (name: string) => timestamp(name, { withTimezone: true });
const amount = (name: string) => numeric(name, { precision: 78, scale: 0 });

// SUPERSEDED: the terms it was asked on no longer hold (docs/api.md#confirmation-terms).
export const confirmationStatusEnum = pgEnum('confirmation_status', ['PENDING', 'APPROVED', 'DENIED', 'SUPERSEDED']);

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
    // The terms the person is asked to judge (lib/confirmations/terms.ts); null on rows from before they
    // were stored, which an approval supersedes.
    terms: jsonb('terms').$type<ConfirmationTerms>(),
    // Why it was superseded: which terms changed, or the mission leaving SUBMITTED.
    reason: text('reason'),
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
