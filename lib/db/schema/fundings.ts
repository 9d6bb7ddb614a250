// The relay outbox of docs/api.md#post-and-pay: one row per mission whose poster signed the funding
// authorization, written before the relayer sends createTaskWithAuthorization and carried to the
// chain and back like a settlement (recorded, hash written before it leaves, reconciled from the
// chain's own state), so an outage delays a funding and never loses or doubles it.
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { missions } from './missions';
import { users } from './users';

// RELAYING: recorded, to be sent or mined; MINED: the task exists and the mission is OPEN;
// FAILED: the relayed transaction reverted (the mission stays AWAITING_FUNDING, the poster may sign again).
export const fundingStatusEnum = pgEnum('funding_status', ['RELAYING', 'MINED', 'FAILED']);

// AUTHORIZATION: the poster's signed ReceiveWithAuthorization, relayed as createTaskWithAuthorization;
// MANDATE: no signature of its own, the person's standing mandate lets the relayer call createTaskFor
// (docs/api.md#standing-allowance).
export const fundingViaEnum = pgEnum('funding_via', ['AUTHORIZATION', 'MANDATE']);

const at = (name: string) => timestamp(name, { withTimezone: true });

export const missionFundings = pgTable(
  'mission_fundings',
  {
    // One relay per mission: the primary key is the conditional write that claims it.
    missionId: uuid('mission_id')
      .primaryKey()
      .references(() => missions.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id')
      .notNull()
      .references(() => users.id),
    via: fundingViaEnum('via').notNull().default('AUTHORIZATION'),
    // AUTHORIZATION: the poster's signature; MANDATE: null.
    signature: text('signature'),
    // The authorization's window end (unix seconds), as signed; MANDATE: the mission's fund-by.
    validBefore: bigint('valid_before', { mode: 'bigint' }).notNull(),
    status: fundingStatusEnum('status').notNull().default('RELAYING'),
    txHash: text('tx_hash'),
    // Where to look for the task's TaskCreated event when no recorded hash answers (a block before the send).
    fromBlock: bigint('from_block', { mode: 'bigint' }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    lockedUntil: at('locked_until'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    minedAt: at('mined_at'),
  },
  (t) => [index('mission_fundings_relaying_idx').on(t.status, t.updatedAt).where(sql`${t.status} = 'RELAYING'`)],
);

export type MissionFunding = typeof missionFundings.$inferSelect;
