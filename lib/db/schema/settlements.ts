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
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { missions } from './missions';
import { users } from './users';

// SPLIT: a bounty's releaseSplit (escrow v3) to its winners, and to its client for unawarded places.
export const settlementKindEnum = pgEnum('settlement_kind', ['RELEASE', 'REFUND', 'CLAIM', 'SPLIT']);
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
    // SPLIT only: who gets what, in releaseSplit's order.
    recipients: jsonb('recipients').$type<{ address: string; amount: string }[]>(),
    feeBps: integer('fee_bps'),
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
    uniqueIndex('settlements_mission_kind_idx').on(t.missionId, t.kind).where(sql`${t.missionId} is not null`),
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
