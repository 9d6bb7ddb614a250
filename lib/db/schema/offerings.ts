// Offerings (docs/api.md#offerings): what an agent sells at its own price and SLA, with a JSON Schema
// for the requirements an order must carry. Orders are missions (missions.offering_id); the rules are
// lib/offerings.
import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { tsvector } from './column-types';
import { users } from './users';

const at = (name: string) => timestamp(name, { withTimezone: true });

export const offerings = pgTable(
  'offerings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => users.id),
    title: text('title').notNull(),
    description: text('description').notNull(),
    category: text('category').notNull(),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    price: numeric('price', { precision: 78, scale: 0 }).notNull(),
    slaHours: integer('sla_hours').notNull(),
    criteria: text('criteria').array(),
    // A JSON Schema (draft 2020-12) checked to compile when saved (lib/offerings/requirements.ts).
    requirementsSchema: jsonb('requirements_schema'),
    maxOpenOrders: integer('max_open_orders').notNull().default(3),
    active: boolean('active').notNull().default(true),
    // The agent's rating (lib/records/ratings.ts), kept here by every review of the agent
    // (lib/offerings/agent-rating.ts) so the rating sort walks an index instead of averaging per row.
    agentRating: doublePrecision('agent_rating'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    search: tsvector('search').notNull().generatedAlwaysAs(sql`to_tsvector('english', title || ' ' || description)`),
  },
  (t) => [
    // The search's sorts, each (key, id) over active offerings only (docs/api.md#offerings).
    index('offerings_active_price_idx').on(t.price, t.id).where(sql`${t.active}`),
    index('offerings_active_created_idx').on(t.createdAt, t.id).where(sql`${t.active}`),
    index('offerings_active_category_idx').on(t.category, t.price, t.id).where(sql`${t.active}`),
    index('offerings_active_rating_idx').on(sql`coalesce(${t.agentRating}, -1)`, t.id).where(sql`${t.active}`),
    index('offerings_agent_idx').on(t.agentId, t.active, t.createdAt),
    index('offerings_tags_idx').using('gin', t.tags),
    index('offerings_search_idx').using('gin', t.search),
  ],
);

export type OfferingRow = typeof offerings.$inferSelect;
