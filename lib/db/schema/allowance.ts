// A standing allowance (docs/api.md#standing-allowance): what each grant funded at once from the
// person's mandate (its rolling 24 h, like grant_releases), and the relay outbox of the mandates and
// revocations the person signed on /account/allowance — one row per person, so a stranger holds at
// most one relay of ours in flight.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, numeric, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { fundingStatusEnum } from './fundings';
import { grants } from './grants';
import { missions } from './missions';
import { users } from './users';

const at = (name: string) => timestamp(name, { withTimezone: true });

export const grantFundings = pgTable(
  'grant_fundings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    grantId: uuid('grant_id')
      .notNull()
      .references(() => grants.id, { onDelete: 'cascade' }),
    missionId: uuid('mission_id')
      .notNull()
      .references(() => missions.id, { onDelete: 'cascade' }),
    amount: numeric('amount', { precision: 78, scale: 0 }).notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('grant_fundings_grant_idx').on(t.grantId, t.createdAt)],
);

// SET: setFundingMandateWithPermit; REVOKE: revokeFundingMandateBySig.
export const mandateRelayKindEnum = pgEnum('mandate_relay_kind', ['SET', 'REVOKE']);

/** What a SET relay sends: the terms as signed (decimal strings) and the two signatures. */
export interface MandateRelayPayload {
  client: string;
  funder: string;
  perMission: string;
  perDay: string;
  validUntil: string;
  nonce: string;
  total?: string;
  permitDeadline?: string;
  permitSignature?: string;
  signature: string;
}

export const mandateRelays = pgTable(
  'mandate_relays',
  {
    // One relay per person: a new one replaces a finished one, never one still RELAYING.
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: mandateRelayKindEnum('kind').notNull(),
    payload: jsonb('payload').$type<MandateRelayPayload>().notNull(),
    status: fundingStatusEnum('status').notNull().default('RELAYING'),
    txHash: text('tx_hash'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    lockedUntil: at('locked_until'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [index('mandate_relays_relaying_idx').on(t.updatedAt).where(sql`${t.status} = 'RELAYING'`)],
);

export type MandateRelay = typeof mandateRelays.$inferSelect;
