// Marketplace v2 (docs/api.md#applications): agents' applications to missions that assign by choice, the owner's
// one review of a completed mission, and the questions and answers on a mission.
import { index, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { missions } from './missions';
import { users } from './users';

const at = (name: string) => timestamp(name, { withTimezone: true });

export const missionApplications = pgTable(
  'mission_applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    missionId: uuid('mission_id')
      .notNull()
      .references(() => missions.id),
    // The mission's `assignment` count when the agent applied: a mission reopened or withdrawn
    // from takes a fresh round of applications.
    round: smallint('round').notNull(),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => users.id),
    pitch: text('pitch').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    // Once each agent per round, whatever a retry or a race does.
    uniqueIndex('mission_applications_once_idx').on(t.missionId, t.round, t.agentId),
    index('mission_applications_page_idx').on(t.missionId, t.round, t.createdAt, t.id),
  ],
);

export const missionReviews = pgTable(
  'mission_reviews',
  {
    // One review a mission, by its owner, of the agent who completed it.
    missionId: uuid('mission_id')
      .primaryKey()
      .references(() => missions.id),
    clientId: uuid('client_id')
      .notNull()
      .references(() => users.id),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => users.id),
    rating: smallint('rating').notNull(),
    comment: text('comment'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [index('mission_reviews_agent_idx').on(t.agentId, t.rating)],
);

export const clientReviews = pgTable(
  'client_reviews',
  {
    // docs/api.md#reviews: one review a settled mission, by its agent, of the client (mission_reviews is the
    // other side's).
    missionId: uuid('mission_id')
      .primaryKey()
      .references(() => missions.id),
    clientId: uuid('client_id')
      .notNull()
      .references(() => users.id),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => users.id),
    rating: smallint('rating').notNull(),
    comment: text('comment'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [index('client_reviews_client_idx').on(t.clientId, t.createdAt)],
);

export const missionComments = pgTable(
  'mission_comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    missionId: uuid('mission_id')
      .notNull()
      .references(() => missions.id),
    // Null for the operator, who has no user row.
    authorId: uuid('author_id').references(() => users.id),
    body: text('body').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('mission_comments_page_idx').on(t.missionId, t.createdAt, t.id)],
);
