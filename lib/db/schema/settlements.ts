// The chain outbox: every transaction the backend sends for money (escrow release, refund, and
// the claimFor it relays for agents) is a row here first — written in the transaction that decides
// it, then signed, its hash recorded, sent, and confirmed from the chain. A crash anywhere in
// between is resumed from the row and the chain's own state, never sent twice.
import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { missions } from './missions';
import { users } from './users';

// SPLIT: a bounty's releaseSplit (escrow v3) to its winners, and to its client for unawarded places.
// PART: a milestone's releasePart (escrow v5, docs/api.md#milestones): the task stays open with the rest.
// SETTLE: escrow v5's settle — part to the agent, the rest refunded (docs/api.md#settlement-offers).
export const settlementKindEnum = pgEnum('settlement_kind', ['RELEASE', 'REFUND', 'CLAIM', 'SPLIT', 'PART', 'SETTLE']);
// SUPERSEDED: never to be sent — the task's client reclaimed it first (docs/api.md#escrow).
export const settlementStatusEnum = pgEnum('settlement_status', ['PENDING', 'MINED', 'FAILED', 'SUPERSEDED']);

const at = (name: string) => timestamp(name, { withTimezone: true });

export const settlements = pgTable(
  'settlements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: settlementKindEnum('kind').notNull(),
    missionId: uuid('mission_id').references(() => missions.id),
    // Who receives the money: the agent (release, claim) or the client (refund).
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    beneficiary: text('beneficiary').notNull(),
    taskId: bigint('task_id', { mode: 'bigint' }),
    // The escrow the call goes to (lowercase); null on rows written before v3: the v2 escrow.
    escrow: text('escrow'),
    // SPLIT: who gets what, in releaseSplit's order. SETTLE: the agent's part (before the fee), then the
    // client's refund.
    recipients: jsonb('recipients').$type<{ address: string; amount: string }[]>(),
    feeBps: integer('fee_bps'),
    // PART only: the milestone it releases (its gross amount is recipients[0].amount, as releasePart takes it).
    milestone: smallint('milestone'),
    // Expected at decision time; for a claim, replaced by the Claimed event's amount once mined.
    amount: numeric('amount', { precision: 78, scale: 0 }).notNull(),
    status: settlementStatusEnum('status').notNull().default('PENDING'),
    txHash: text('tx_hash'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    lockedUntil: at('locked_until'),
    idempotencyKey: text('idempotency_key'),
    createdAt: at('created_at').notNull().defaultNow(),
    minedAt: at('mined_at'),
  },
  (t) => [
    // One release or refund per mission, whatever retries or races do.
    uniqueIndex('settlements_mission_kind_idx')
      .on(t.missionId, t.kind)
      .where(sql`${t.missionId} is not null and ${t.milestone} is null`),
    // One releasePart per milestone (keyed on the column, not the new enum value: docs/api.md#milestones).
    uniqueIndex('settlements_milestone_idx').on(t.missionId, t.milestone).where(sql`${t.milestone} is not null`),
    // One claim in flight per agent: a concurrent second claim cannot be inserted.
    uniqueIndex('settlements_claim_in_flight_idx')
      .on(t.userId)
      .where(sql`${t.kind} = 'CLAIM' and ${t.status} = 'PENDING'`),
    uniqueIndex('settlements_claim_key_idx').on(t.userId, t.idempotencyKey).where(sql`${t.idempotencyKey} is not null`),
    index('settlements_pending_idx').on(t.status, t.createdAt),
    index('settlements_user_idx').on(t.userId, t.kind, t.createdAt),
  ],
);

export type Settlement = typeof settlements.$inferSelect;
