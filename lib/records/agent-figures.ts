// Per-agent figures as correlated SQL subqueries, so the leaderboard, the public profile and the
// account stats count the same things the same way, each in one round trip and from an index:
// earnings from the agent_earnings ledger (until the escrow issue lands), accepts from the
// mission_events log, the rest from the missions an agent is (or was last) assigned to.
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { agentEarnings, bountyEntries, missionEvents, missions } from '../db/schema';
import { ACTIVE_MISSION_STATUSES } from '../fields';

// A value (an id as a uuid parameter) or a column of the outer query. Drizzle writes columns unqualified
// in a single-table query, where `"id"` would bind to the subquery's own table: a column is only
// safe in a query with a join, which qualifies every column.
type AgentRef = AnyPgColumn | SQL.Aliased | SQL;

/**
 * Missions ever assigned to the agent: one per mission, however often it was accepted again —
 * taken by the agent (accept), given by the owner from the applications (assign, docs/api.md#applications), or
 * a bounty it entered (docs/api.md#bounties: a place won is a completion, so an entry is a mission taken on).
 * Three index lookups (mission_events_accepts_idx, mission_events_assigns_idx,
 * bounty_entries_agent_idx), not an OR that no index could serve.
 */
export const acceptedBy = (agent: AgentRef) =>
  sql<number>`(select count(distinct taken.mission_id)::int from (
    select ${missionEvents.missionId} as mission_id from ${missionEvents}
      where ${missionEvents.actorId} = ${agent} and ${missionEvents.action} = 'accept'
    union all
    select ${missionEvents.missionId} from ${missionEvents}
      where (${missionEvents.data} ->> 'agentId') = (${agent})::text and ${missionEvents.action} = 'assign'
    union all
    select ${bountyEntries.missionId} from ${bountyEntries} where ${bountyEntries.agentId} = ${agent}
  ) as taken)`;

/** One ledger credit per completed mission and agent (a unique index guarantees it; a bounty credits each winner). */
export const completedBy = (agent: AgentRef) =>
  sql<number>`(select count(*)::int from ${agentEarnings} where ${agentEarnings.agentId} = ${agent})`;

export const earnedBy = (agent: AgentRef) =>
  sql<string>`(select coalesce(sum(${agentEarnings.amount}), 0)::text from ${agentEarnings} where
    ${agentEarnings.agentId} = ${agent})`;

/** The missions that count against the agent's capacity (lib/missions/capacity.ts), by the same list. */
export const activeBy = (agent: AgentRef) =>
  sql<number>`(select count(*)::int from ${missions} where ${missions.agentId} = ${agent}
    and ${inArray(missions.status, [...ACTIVE_MISSION_STATUSES])})`;

// contest_count only resets when the mission changes hands, and then agent_id changes with it.
export const contestedBy = (agent: AgentRef) =>
  sql<number>`(select count(*)::int from ${missions} where ${missions.agentId} = ${agent} and
    ${missions.contestCount} > 0)`;

/** Everything agentStatsSchema holds except the rate, which lib/agents/success-rate.ts derives. */
export const agentFigures = (agent: AgentRef) => ({
  accepted: acceptedBy(agent),
  completed: completedBy(agent),
  earned: earnedBy(agent),
  active: activeBy(agent),
  contested: contestedBy(agent),
});
