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
import { bountyEntries, type MissionFileKind, missionContests, missionFiles, missions, users } from '../db/schema';
import type { JsonText } from '../http/route';
import type { MissionView } from './schemas';

export type MissionJson = JsonText<MissionView>;

const iso = (column: AnyPgColumn) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const walletOf = (id: AnyPgColumn) => sql`(select ${users.walletAddress} from ${users} where ${users.id} = ${id})`;

/** The mission's files of one kind in upload order, narrowed by `where` (a round's, say). */
function files(kind: MissionFileKind, where: SQL = sql``): SQL {
  const f = missionFiles;
  return sql`coalesce((select json_agg(json_build_object(
      'id', ${f.id}, 'filename', ${f.filename}, 'contentType', ${f.contentType}, 'size', ${f.size}, 'sha256', ${f.sha256}
    ) order by ${f.createdAt}, ${f.position}, ${f.id})
    from ${f} where ${f.missionId} = ${missions.id} and ${f.kind} = ${sql.raw(`'${kind}'`)} ${where}), '[]'::json)`;
}

// Only the current assignment's work: an agent who withdrew took their rounds with them.
const current = sql`and ${missionFiles.assignment} = ${missions.assignment}`;

function submission(work: SQL): SQL {
  return sql`case when ${work} and ${missions.submittedAt} is not null then json_build_object(
    'note', coalesce(${missions.submissionNote}, ''),
    'files', ${files('DELIVERABLE', sql`${current} and ${missionFiles.round} = ${missions.submissionCount}`)},
    'submittedAt', ${iso(missions.submittedAt)}
  ) end`;
}

function contests(work: SQL): SQL {
  const c = missionContests;
  return sql`case when ${work} then coalesce((select json_agg(json_build_object(
      'round', ${c.round}, 'reason', ${c.reason},
      'files', ${files('EVIDENCE', sql`${current} and ${missionFiles.round} = ${c.round}`)},
      'contestedAt', ${iso(c.createdAt)}
    ) order by ${c.round})
    from ${c} where ${c.missionId} = ${missions.id} and ${c.assignment} = ${missions.assignment}), '[]'::json)
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
  return sql`case when ${m.winners} is not null then json_build_object(
    'winners', ${m.winners}, 'split', ${m.split}, 'entries', ${m.entryCount},
    'awardedAt', ${iso(m.awardedAt)}, 'awardReason', ${m.awardReason},
    'awards', coalesce((select json_agg(json_build_object(
      'place', ${e.place}, 'walletAddress', ${walletOf(e.agentId)}, 'amount', ${e.amount}::text
    ) order by ${e.place}) from ${e} where ${e.missionId} = ${m.id} and ${e.place} is not null), '[]'::json)
  ) end`;
}

/**
 * The JSON text of the `missions` row in scope, with the work (submission, contests) shown where
 * `work` holds: canSeeWork, or ANONYMOUS_SEES_WORK in statements only anonymous viewers run.
 */
export function missionJson(work: SQL): SQL<MissionJson> {
  const m = missions;
  return sql<MissionJson>`json_build_object(
    'id', ${m.id}, 'title', ${m.title}, 'description', ${m.description}, 'category', ${m.category}, 'tags', ${m.tags},
    'reward', ${m.reward}::text, 'deadline', ${iso(m.deadline)}, 'status', ${m.status}, 'assignment', ${m.assignmentMode},
    'client', json_build_object('walletAddress', ${walletOf(m.clientId)}),
    'agent', case when ${m.agentId} is not null then json_build_object('walletAddress', ${walletOf(m.agentId)}) end,
    'onChainTaskId', ${m.onChainTaskId},
    'attachments', ${files('ATTACHMENT')},
    'submission', ${submission(work)},
    'contests', ${contests(work)},
    'bounty', ${bounty()},
    'reviewDeadline', ${iso(m.reviewDeadline)}, 'bumpCount', ${m.bumpCount}, 'bumpedAt', ${iso(m.bumpedAt)},
    'createdAt', ${iso(m.createdAt)}, 'updatedAt', ${iso(m.updatedAt)}, 'acceptedAt', ${iso(m.acceptedAt)},
    'submittedAt', ${iso(m.submittedAt)}, 'completedAt', ${iso(m.completedAt)}, 'cancelledAt', ${iso(m.cancelledAt)}
  )::text`;
}

/**
 * missionJson of an OPEN mission on the board, read from missions.listing (the view without the
 * work, kept by the database) wherever `work` does not hold; written afresh only where it does —
 * the owner, who still sees the contests of an agent who withdrew. No `work`: an anonymous viewer.
 */
export function listedJson(work?: SQL): SQL<MissionJson> {
  return work ? sql<MissionJson>`case when ${work} then ${missionJson(work)} else ${missions.listing} end` : sql<MissionJson>`${missions.listing}`;
}
