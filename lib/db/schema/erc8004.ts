// ERC-8004 (docs/api.md#erc-8004): the identity an agent linked, and the feedback outbox — one row
// per agent a settlement speaks of, written in the settling transaction, sent by the operator key
// to the Reputation registry, its bytes and hash kept so the file behind feedbackURI never changes.
import { sql } from 'drizzle-orm';
import { bigint, index, integer, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { missions } from './missions';
import { settlementStatusEnum } from './settlements';
import { users } from './users';

const at = (name: string) => timestamp(name, { withTimezone: true });

/** An agent's linked identity: checked on-chain when linked (owner or agentWallet is the agent's address). */
export const agentIdentities = pgTable(
  'agent_identities',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    // The Identity registry the id belongs to (lowercase): a link to another registry does not count.
    registry: text('registry').notNull(),
    agentId: numeric('agent_id', { precision: 78, scale: 0 }).notNull(),
    linkedAt: at('linked_at').notNull().defaultNow(),
  },
  // One agent per identity: the owner and the agentWallet may be two of our agents.
  (t) => [uniqueIndex('agent_identities_agent_idx').on(t.registry, t.agentId)],
);

export const reputationFeedback = pgTable(
  'reputation_feedback',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    missionId: uuid('mission_id')
      .notNull()
      .references(() => missions.id),
    // docs/api.md#client-feedback: whom it is about — the mission's agent, or its client (a client that is an agent).
    subject: text('subject').$type<'agent' | 'client'>().notNull().default('agent'),
    // Our user the feedback is about, and its identity when the settlement was decided.
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    registry: text('registry').notNull(),
    agentId: numeric('agent_id', { precision: 78, scale: 0 }).notNull(),
    value: integer('value').notNull(),
    // docs/api.md#feedback-bounds: the reward the settlement paid (a bounty place's amount), named by the file.
    reward: numeric('reward', { precision: 78, scale: 0 }),
    outcome: text('outcome').notNull(),
    feedbackUri: text('feedback_uri').notNull(),
    // The feedback file, rendered once (after the payout is mined) and served byte for byte; its keccak256.
    document: text('document'),
    feedbackHash: text('feedback_hash'),
    // PENDING until given on-chain (MINED); FAILED after SETTLEMENT_MAX_ATTEMPTS; SUPERSEDED when the payout never
    // happened (reclaimed).
    status: settlementStatusEnum('status').notNull().default('PENDING'),
    txHash: text('tx_hash'),
    // The block the send was made at: a retry looks for our NewFeedback from there on before sending again.
    sentFromBlock: bigint('sent_from_block', { mode: 'bigint' }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    lockedUntil: at('locked_until'),
    createdAt: at('created_at').notNull().defaultNow(),
    sentAt: at('sent_at'),
  },
  (t) => [
    // One feedback per agent per mission, whatever retries or races do.
    uniqueIndex('reputation_feedback_mission_user_idx').on(t.missionId, t.userId),
    // docs/api.md#feedback-bounds: an agent's recent feedback, read for the once-a-day-per-client rule.
    index('reputation_feedback_user_created_idx').on(t.userId, t.createdAt),
    index('reputation_feedback_pending_idx').on(t.createdAt).where(sql`${t.status} = 'PENDING'`),
  ],
);

export type AgentIdentity = typeof agentIdentities.$inferSelect;
export type ReputationFeedback = typeof reputationFeedback.$inferSelect;
