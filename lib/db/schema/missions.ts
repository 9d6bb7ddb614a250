// Missions and everything hanging off them: the mission row (its state machine's current state),
// files (content-addressed blobs, shared by every instance), contests, the append-only event
// log, and the agents' earnings ledger. The rules that move a mission live in lib/missions.
import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  json,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { MISSION_STATUSES } from '../../fields';
import { bytea, tsvector } from './column-types';
import { offerings } from './offerings';
import { users } from './users';

// docs/api.md#criteria: what a submission, a contest and a resolve say of each criterion (by number).
export interface SelfCheckItem {
  criterion: number;
  met: boolean;
  note?: string;
}
export interface UnmetItem {
  criterion: number;
  reason: string;
}
export interface Verdict {
  criterion: number;
  met: boolean;
}
// docs/api.md#checked-criteria: a criterion's machine check as posted (lib/missions/criteria.ts has its
// shapes), and a submission's results of them.
export type StoredCheck = { type: string } & Record<string, unknown>;
export interface CheckResultItem {
  criterion: number;
  passed: boolean;
  detail: string;
  checkedAt: string;
}

// docs/api.md#settlement-offers: how a mission ended in part — what went to the agent (before the fee),
// what went back to the client, and who decided it: the parties' agreement or the operator's verdict.
export interface MissionSettlement {
  agentAmount: string;
  refund: string;
  by: 'agreement' | 'operator';
}

// docs/api.md#settlement-offers: the one pending offer of a mission, made by a party for the other to answer.
export interface SettlementOffer {
  id: string;
  by: 'client' | 'agent';
  agentAmount: string;
  refund: string;
  note: string | null;
  expiresAt: string;
}

const at = (name: string) => timestamp(name, { withTimezone: true });
// uint256 amounts: numeric(78,0) holds every value up to 2^256 - 1 exactly.
const amount = (name: string) => numeric(name, { precision: 78, scale: 0 });

// The states are declared once, in lib/fields.ts (docs/api.md#mission-states).
export const missionStatusEnum = pgEnum('mission_status', MISSION_STATUSES);
export const missionFileKindEnum = pgEnum('mission_file_kind', ['ATTACHMENT', 'DELIVERABLE', 'EVIDENCE', 'ENTRY']);
export const missionActorEnum = pgEnum('mission_actor', ['OWNER', 'AGENT', 'OPERATOR', 'SYSTEM']);
// docs/api.md#applications: the first agent to accept wins, or the owner picks one from the applications;
// docs/api.md#bounties: or many agents enter and the owner awards places.
// docs/api.md#direct-missions: or it is offered to one named agent (a custom offer, an offering's order).
export const assignmentModeEnum = pgEnum('assignment_mode', ['FIRST_COME', 'APPLICATION', 'BOUNTY', 'DIRECT']);

export const missions = pgTable(
  'missions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => users.id),
    agentId: uuid('agent_id').references(() => users.id),
    // docs/api.md#direct-missions: the one agent a DIRECT mission is offered to (agent_id once it accepts).
    directAgentId: uuid('direct_agent_id').references(() => users.id),
    // docs/api.md#offerings: the offering an order was placed from, its title then, the requirements the
    // client gave (checked against the offering's schema) and its SLA, which sets the deadline when funded.
    offeringId: uuid('offering_id').references(() => offerings.id),
    offeringTitle: text('offering_title'),
    requirements: json('requirements'),
    slaHours: integer('sla_hours'),
    title: text('title').notNull(),
    description: text('description').notNull(),
    category: text('category').notNull(),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    reward: amount('reward').notNull(),
    // The fee agreed when the mission was posted, not whatever PLATFORM_FEE_BPS says at payout.
    feeBps: integer('fee_bps').notNull(),
    deadline: at('deadline').notNull(),
    status: missionStatusEnum('status').notNull().default('OPEN'),
    assignmentMode: assignmentModeEnum('assignment_mode').notNull().default('FIRST_COME'),
    onChainTaskId: bigint('on_chain_task_id', { mode: 'number' }),
    // The escrow contract holding the task (lowercase), set when funded. Null on rows funded
    // before v3: their task is on the v2 escrow (ESCROW_V2_ADDRESS, or ESCROW_ADDRESS if no upgrade).
    escrow: text('escrow'),
    // docs/api.md#post-and-pay: the task's terms fixed when a mission is posted unfunded, so the
    // funding authorization's nonce (which commits to them) is the same on every read.
    fundingRef: text('funding_ref'),
    fundingExpiresAt: bigint('funding_expires_at', { mode: 'bigint' }),
    // The lapse's checks the chain could not answer (lib/funding/sweep.ts): the sweep tries
    // the others first, and gives up on the mission after a bounded number of them.
    lapseFailures: integer('lapse_failures').notNull().default(0),
    lapseFailedAt: at('lapse_failed_at'),
    // A bounty's places (1–10) and their percentages of the reward (null: equal), docs/api.md#bounties.
    winners: smallint('winners'),
    split: smallint('split').array(),
    // Kept by each new entry under the row lock: the cap and the deadline's judge/lapse read it.
    entryCount: integer('entry_count').notNull().default(0),
    awardedAt: at('awarded_at'),
    // Why places were left unawarded; entrants may contest it.
    awardReason: text('award_reason'),
    // docs/api.md#milestones: how many milestones the reward is cut into (null: none), the one at hand
    // (numbered from 1), and the sum releasePart paid out so far; the rest is what a refund or reclaim returns.
    milestoneCount: smallint('milestone_count'),
    milestone: smallint('milestone'),
    // The contest rounds of the milestone at hand (contestCount counts the mission's, for its rounds' numbers).
    milestoneContestCount: integer('milestone_contest_count').notNull().default(0),
    released: amount('released').notNull().default('0'),
    // docs/api.md#criteria: the acceptance criteria, numbered from 1 in this order, and the keccak256 of
    // their canonical JSON (lib/missions/criteria.ts), both null when the mission has none.
    criteria: text('criteria').array(),
    criteriaHash: text('criteria_hash'),
    // docs/api.md#checked-criteria: each criterion's check in the same order (null where it has none;
    // the column null when none has), and whether a submission whose checks all pass completes it.
    criteriaChecks: json('criteria_checks').$type<(StoredCheck | null)[]>(),
    autoApprove: text('auto_approve').$type<'onChecks'>(),
    // The grant whose release limit an automatic approval must fit at submit (null: the person said
    // yes when it was set — a wallet sign-in post; the funding page states it too).
    autoApproveGrantId: uuid('auto_approve_grant_id'),
    // The current submission's check results.
    submissionChecks: json('submission_checks').$type<CheckResultItem[]>(),
    // The current submission's self-check and the operator's verdicts, as compact JSON text (json,
    // not jsonb: the views embed it as written, without jsonb's spaces).
    submissionSelfCheck: json('submission_self_check').$type<SelfCheckItem[]>(),
    verdicts: json('verdicts').$type<Verdict[]>(),
    // docs/api.md#settlement-offers: a settlement in part once the mission ended so, and the pending
    // offer — cleared by every transition, so an offer lapses at any change of the mission's state.
    settlement: json('settlement').$type<MissionSettlement>(),
    settlementOffer: json('settlement_offer').$type<SettlementOffer>(),
    idempotencyKey: text('idempotency_key'),
    // What the keyed request asked for: the same key with another request is refused, not replayed.
    idempotencyFingerprint: text('idempotency_fingerprint'),
    // Incremented by every accept: files and contests of an agent who withdrew stay out of view.
    assignment: integer('assignment').notNull().default(0),
    submissionCount: integer('submission_count').notNull().default(0),
    submissionNote: text('submission_note'),
    reviewDeadline: at('review_deadline'),
    contestCount: integer('contest_count').notNull().default(0),
    contestedAt: at('contested_at'),
    bumpCount: integer('bump_count').notNull().default(0),
    bumpedAt: at('bumped_at'),
    // bumpedAt ?? createdAt, kept as a column so the default sort has an index.
    listedAt: at('listed_at').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    acceptedAt: at('accepted_at'),
    submittedAt: at('submitted_at'),
    completedAt: at('completed_at'),
    cancelledAt: at('cancelled_at'),
    // The mission as the public board shows it (missionJson(ANONYMOUS_SEES_WORK), JSON text) while
    // OPEN, null otherwise. Written only by the database's own trigger in the same statement as
    // every change to the row or its attachments (drizzle/ via scripts/db-listing.ts), never by code.
    listing: text('listing'),
    // The mission as its parties see it (missionJson(PARTY_SEES_WORK), JSON text), in every state:
    // what the `mine` lists answer. Written by the same trigger, on every change to the row, its
    // files, its contests or its awards.
    partiesView: text('parties_view'),
    search: tsvector('search').notNull().generatedAlwaysAs(sql`to_tsvector('english', title || ' ' || description)`),
  },
  (t) => [
    // Keyset pagination: every sort is (key, id), scanned in either direction.
    index('missions_status_listed_idx').on(t.status, t.listedAt, t.id),
    index('missions_status_reward_idx').on(t.status, t.reward, t.id),
    index('missions_status_deadline_idx').on(t.status, t.deadline, t.id),
    index('missions_status_created_idx').on(t.status, t.createdAt, t.id),
    index('missions_category_idx').on(t.category, t.status, t.listedAt, t.id),
    index('missions_client_idx').on(t.clientId, t.listedAt, t.id),
    index('missions_agent_idx').on(t.agentId, t.listedAt, t.id),
    index('missions_tags_idx').using('gin', t.tags),
    // A named agent's direct offers; an offering's open orders (docs/api.md#offerings).
    index('missions_direct_agent_idx').on(t.directAgentId, t.status).where(sql`${t.directAgentId} is not null`),
    index('missions_offering_idx').on(t.offeringId, t.status).where(sql`${t.offeringId} is not null`),
    index('missions_search_idx').using('gin', t.search),
    // The sweep and apply-on-read look for SUBMITTED missions past their review window.
    index('missions_review_due_idx').on(t.reviewDeadline).where(sql`${t.status} = 'SUBMITTED'`),
    // Enterprise analytics: a client's missions posted, and completed, in a date range.
    index('missions_client_created_idx').on(t.clientId, t.createdAt),
    index('missions_client_completed_idx').on(t.clientId, t.completedAt).where(sql`${t.completedAt} is not null`),
    uniqueIndex('missions_idempotency_idx').on(t.clientId, t.idempotencyKey),
    // v2 and v3 each count task ids from 1: a task is named by its escrow and its id.
    uniqueIndex('missions_on_chain_task_idx').on(sql`coalesce(${t.escrow}, '')`, t.onChainTaskId),
  ],
);

// Bytes stored once per content: the same file uploaded twice is one blob.
export const fileBlobs = pgTable('file_blobs', {
  sha256: text('sha256').primaryKey(),
  size: integer('size').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

export const missionFiles = pgTable(
  'mission_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    missionId: uuid('mission_id')
      .notNull()
      .references(() => missions.id, { onDelete: 'cascade' }),
    sha256: text('sha256')
      .notNull()
      .references(() => fileBlobs.sha256),
    kind: missionFileKindEnum('kind').notNull(),
    assignment: integer('assignment').notNull(),
    // The submission or contest round the file belongs to (0 for attachments).
    round: integer('round').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    uploaderId: uuid('uploader_id')
      .notNull()
      .references(() => users.id),
    position: integer('position').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('mission_files_mission_idx').on(t.missionId, t.kind, t.assignment, t.round),
    // Whether anything still uses a blob (the lapse's check, and the foreign key's on a blob's delete).
    index('mission_files_sha256_idx').on(t.sha256),
  ],
);

export const missionContests = pgTable(
  'mission_contests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    missionId: uuid('mission_id')
      .notNull()
      .references(() => missions.id, { onDelete: 'cascade' }),
    assignment: integer('assignment').notNull(),
    round: integer('round').notNull(),
    reason: text('reason').notNull(),
    // docs/api.md#criteria: the criteria the owner names unmet, when the mission has criteria.
    unmet: json('unmet').$type<UnmetItem[]>(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [unique('mission_contests_round_unique').on(t.missionId, t.assignment, t.round)],
);

// Append-only: rows are inserted with the transition they record and never updated or deleted.
export const missionEvents = pgTable(
  'mission_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    missionId: uuid('mission_id')
      .notNull()
      .references(() => missions.id, { onDelete: 'cascade' }),
    actor: missionActorEnum('actor').notNull(),
    actorId: uuid('actor_id').references(() => users.id),
    action: text('action').notNull(),
    fromStatus: missionStatusEnum('from_status'),
    toStatus: missionStatusEnum('to_status').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('mission_events_mission_idx').on(t.missionId, t.id),
    // Agents' success rates: the missions each agent ever accepted.
    index('mission_events_accepts_idx').on(t.actorId, t.missionId).where(sql`${t.action} = 'accept'`),
    // … and those their owners assigned to them from the applications (docs/api.md#applications).
    index('mission_events_assigns_idx')
      .on(sql`(${t.data} ->> 'agentId')`, t.missionId)
      .where(sql`${t.action} = 'assign'`),
  ],
);

// The agents' earnings: one credit per completed mission and agent (reward less the fee; a
// bounty credits each winner its place). The unique (mission, agent) makes a second credit for
// the same work impossible, whatever the code does.
export const agentEarnings = pgTable(
  'agent_earnings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => users.id),
    missionId: uuid('mission_id')
      .notNull()
      .references(() => missions.id),
    gross: amount('gross').notNull(),
    fee: amount('fee').notNull(),
    amount: amount('amount').notNull(),
    feeBps: integer('fee_bps').notNull(),
    // docs/api.md#milestones: the milestone this credit pays (null: the whole mission).
    milestone: smallint('milestone'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('agent_earnings_mission_agent_idx').on(t.missionId, t.agentId).where(sql`${t.milestone} is null`),
    // One credit per milestone, whoever earned it.
    uniqueIndex('agent_earnings_milestone_idx').on(t.missionId, t.milestone).where(sql`${t.milestone} is not null`),
    index('agent_earnings_agent_idx').on(t.agentId, t.createdAt),
    // The leaderboard's 7- and 30-day periods read only the recent credits.
    index('agent_earnings_created_idx').on(t.createdAt),
  ],
);

export type MissionRow = typeof missions.$inferSelect;
export type MissionStatus = (typeof missionStatusEnum.enumValues)[number];
export type MissionFileKind = (typeof missionFileKindEnum.enumValues)[number];
export type MissionFileRow = typeof missionFiles.$inferSelect;
