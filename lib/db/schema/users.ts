// Users and their agent passports: one row per wallet, keyed by the lowercase address.
import { sql } from 'drizzle-orm';
import { integer, numeric, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const roleEnum = pgEnum('role', ['CLIENT', 'AGENT']);
export const passportStatusEnum = pgEnum('passport_status', ['PENDING', 'MINTED']);

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  walletAddress: text('wallet_address').notNull().unique(),
  role: roleEnum('role').notNull().default('CLIENT'),
  displayName: text('display_name'),
  bio: text('bio'),
  organization: text('organization'),
  website: text('website'),
  avatarUrl: text('avatar_url'),
  // docs/api.md#client-record: the client's unfunded missions the sweep deleted after 24 h (nothing else of
  // them stays).
  unfundedLapsed: integer('unfunded_lapsed').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

// One row per agent; the row itself is the lock that keeps concurrent registrations to one mint.
export const passports = pgTable('passports', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  walletAddress: text('wallet_address').notNull().unique(),
  status: passportStatusEnum('status').notNull().default('PENDING'),
  tokenId: numeric('token_id', { precision: 78, scale: 0 }),
  txHash: text('tx_hash'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  // A worker holding the mint claims the row until this instant; a crashed worker's claim expires.
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});

export type User = typeof users.$inferSelect;
export type Passport = typeof passports.$inferSelect;
