// The mission object of docs/api.md#missions as a viewer may see it, written by the database: one statement
// answers a whole page with its files, contests and the parties' wallets, each mission as JSON
// text that goes to the client untouched. Doing it here rather than in JavaScript saves a round
// trip, the row decoding, a Date per timestamp and a re-serialisation — most of a list's cost
// (docs/performance.md). Money is a decimal string, times are UTC ISO strings as toISOString
// writes them, and the submission and the contests are shown only to those who may see the work.
// What an anonymous viewer sees of an OPEN mission, and what its parties see of any mission, are
// also stored (missions.listing, missions.parties_view) by a trigger whose SQL scripts/db-listing.ts
// renders from missionJson: a change here needs a new migration.
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  bountyEntries,
  type MissionFileKind,
  missionContests,
  missionFiles,
  missionMilestones,
  missions,
  users,
} from '../db/schema';
import type { JsonText } from '../json-text';
import type { MissionView } from '../missions/schemas';

export type MissionJson = JsonText<MissionView>;

export const iso = (column: AnyPgColumn) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const walletOf = (id: AnyPgColumn | SQL) =>
  sql`(select ${users.walletAddress} from ${users} where ${users.id} = ${id})`;

// JSON written compact. json_build_object and json_agg put " : " and ", " between fields and
// elements — 9 % of a page, which every client downloads and a model reading an MCP tool's answer
// pays for in tokens. row_to_json and array_to_json write none.

/** An object of `fields` in their order: row_to_json of one row, each field named by its column alias. */
export function object(fields: Record<string, SQL | AnyPgColumn>): SQL {
  const columns = Object.entries(fields).map(([name, value]) => sql`${value} as ${sql.identifier(name)}`);
  return sql`(select row_to_json(o) from (select ${sql.join(columns, sql`, `)}) o)`;
}

/** An array of `element` for each row of `from`, in `order`; [] when there is none. */
const array = (element: SQL, order: SQL, from: SQL) =>
  sql`coalesce((select array_to_json(array_agg(${element} order by ${order})) ${from}), '[]'::json)`;

/** The mission's files of one kind in upload order, narrowed by `where` (a round's, say). */
function files(kind: MissionFileKind, where: SQL = sql``): SQL {
  const f = missionFiles;
  return array(
    object({ id: f.id, filename: f.filename, contentType: f.contentType, size: f.size, sha256: f.sha256 }),
    sql`${f.createdAt}, ${f.position}, ${f.id}`,
    sql`from ${f} where ${f.missionId} = ${missions.id} and ${f.kind} = ${sql.raw(`'${kind}'`)} ${where}`,
  );
}

// Only the current assignment's work: an agent who withdrew took their rounds with them.
const current = sql`and ${missionFiles.assignment} = ${missions.assignment}`;

function submission(work: SQL): SQL {
  return sql`case when ${work} and ${missions.submittedAt} is not null then ${object({
    note: sql`coalesce(${missions.submissionNote}, '')`,
    selfCheck: sql`coalesce(${missions.submissionSelfCheck}, '[]'::json)`,
    checks: sql`coalesce(${missions.submissionChecks}, '[]'::json)`,
    files: files('DELIVERABLE', sql`${current} and ${missionFiles.round} = ${missions.submissionCount}`),
    submittedAt: iso(missions.submittedAt),
  })} end`;
}

function contests(work: SQL): SQL {
  const c = missionContests;
  const contest = object({
    round: c.round,
    reason: c.reason,
    unmet: sql`coalesce(${c.unmet}, '[]'::json)`,
    files: files('EVIDENCE', sql`${current} and ${missionFiles.round} = ${c.round}`),
    contestedAt: iso(c.createdAt),
  });
  const ofMission = sql`from ${c} where ${c.missionId} = ${missions.id} and ${c.assignment} = ${missions.assignment}`;
  return sql`case when ${work} then ${array(contest, sql`${c.round}`, ofMission)}
    else '[]'::json end`;
}

/**
 * A bounty's terms and, once awarded, its places (docs/api.md#bounties) — never an entry itself. Keyed on
 * `winners`, set only on bounties (a comparison with the new enum value would fail in the
 * migration that adds it and rewrites the listings in one transaction).
 */
function bounty(): SQL {
  const m = missions;
  const e = bountyEntries;
  const award = object({ place: e.place, walletAddress: walletOf(e.agentId), amount: sql`${e.amount}::text` });
  return sql`case when ${m.winners} is not null then ${object({
    winners: m.winners,
    split: m.split,
    entries: m.entryCount,
    awardedAt: iso(m.awardedAt),
    awardReason: m.awardReason,
    awards: array(award, sql`${e.place}`, sql`from ${e} where ${e.missionId} = ${m.id} and ${e.place} is not null`),
  })} end`;
}

/** docs/api.md#milestones: the mission's milestones in order, each with its status and what it released. */
function milestones(): SQL {
  const ms = missionMilestones;
  const milestone = object({
    number: ms.number,
    title: ms.title,
    amount: sql`${ms.amount}::text`,
    criteria: ms.criteria,
    status: ms.status,
    releasedAmount: sql`${ms.releasedAmount}::text`,
    reviewDeadline: iso(ms.reviewDeadline),
    contests: ms.contestCount,
    submittedAt: iso(ms.submittedAt),
    approvedAt: iso(ms.approvedAt),
  });
  return array(milestone, sql`${ms.number}`, sql`from ${ms} where ${ms.missionId} = ${missions.id}`);
}

/**
 * docs/api.md#criteria: the criteria as `[{ number, text, check? }]`, numbered from 1; [] when there is none.
 * docs/api.md#checked-criteria: `check` only on a criterion that has one.
 */
function criteria(): SQL {
  const list = missions.criteria;
  const check = sql`(${missions.criteriaChecks} -> (c.n::int - 1))`;
  const row = sql`case when ${check} is null or json_typeof(${check}) = 'null'
    then (select row_to_json(o) from (select c.n as "number", c.t as "text") o)
    else (select row_to_json(o) from (select c.n as "number", c.t as "text", ${check} as "check") o) end`;
  return sql`coalesce((select array_to_json(array_agg(${row} order by c.n))
    from unnest(${list}) with ordinality as c(t, n)), '[]'::json)`;
}

/**
 * The JSON text of the `missions` row in scope, with the work (submission, contests) shown where
 * `work` holds: PARTY_SEES_WORK or ANONYMOUS_SEES_WORK for the stored views, canSeeWork otherwise.
 */
export function missionJson(work: SQL): SQL<MissionJson> {
  const m = missions;
  return sql<MissionJson>`${object({
    id: m.id,
    title: m.title,
    description: m.description,
    category: m.category,
    tags: m.tags,
    reward: sql`${m.reward}::text`,
    deadline: iso(m.deadline),
    status: m.status,
    assignment: m.assignmentMode,
    client: object({ walletAddress: walletOf(m.clientId) }),
    // docs/api.md#direct-missions: a DIRECT mission names its agent before it accepts.
    agent: sql`case when coalesce(${m.agentId}, ${m.directAgentId}) is not null then ${object({
      walletAddress: walletOf(sql`coalesce(${m.agentId}, ${m.directAgentId})`),
    })} end`,
    onChainTaskId: m.onChainTaskId,
    attachments: files('ATTACHMENT'),
    criteria: criteria(),
    criteriaHash: m.criteriaHash,
    autoApprove: m.autoApprove,
    verdicts: m.verdicts,
    submission: submission(work),
    contests: contests(work),
    bounty: bounty(),
    milestones: milestones(),
    released: sql`${m.released}::text`,
    // docs/api.md#settlement-offers: what the parties (or the operator) settled, and the pending offer — the
    // parties' business, shown where the work is.
    settlement: sql`case when ${work} then ${m.settlement} end`,
    settlementOffer: sql`case when ${work} then ${m.settlementOffer} end`,
    // docs/api.md#offerings: an order's offering and the requirements its client gave.
    offering: sql`case when ${m.offeringId} is not null then ${object({
      id: m.offeringId,
      title: m.offeringTitle,
    })} end`,
    requirements: m.requirements,
    reviewDeadline: iso(m.reviewDeadline),
    bumpCount: m.bumpCount,
    bumpedAt: iso(m.bumpedAt),
    createdAt: iso(m.createdAt),
    updatedAt: iso(m.updatedAt),
    acceptedAt: iso(m.acceptedAt),
    submittedAt: iso(m.submittedAt),
    completedAt: iso(m.completedAt),
    cancelledAt: iso(m.cancelledAt),
  })}::text`;
}

/**
 * missionJson(work) from the views the database stored: the parties' wherever `work` holds (a viewer
 * who may see the work sees all of it: PARTY_SEES_WORK), else the board's — null for anyone else's
 * sight of a mission no longer OPEN (an entrant reading a judged bounty), which missionJson then
 * writes in a statement of its own: a statement holding missionJson initialises its dozens of
 * subqueries on every execution, used or not (the board fell from 0.81 to 0.62 of its floor).
 * No `work`: an anonymous viewer.
 */
export function storedJson(work?: SQL): SQL<MissionJson | null> {
  return work
    ? sql<MissionJson | null>`case when ${work} then ${missions.partiesView} else ${missions.listing} end`
    : sql<MissionJson | null>`${missions.listing}`;
}
