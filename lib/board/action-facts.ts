// What a mission's `actions` are decided from (docs/api.md#next-actions), read in the same statement as
// its view: the transition table's facts (lib/missions/transitions.ts MissionFacts) and the caller's
// own part in it — an entry in the bounty, an application in this round — as one JSON text.
import { type SQL, sql } from 'drizzle-orm';
import { missionApplications, missions } from '../db/schema';
import type { Config } from '../config';
import { type ActionFacts, type NextAction, nextActions, withActions } from '../missions/next-actions';
import { enteredBy, type Viewer } from '../missions/visibility';
import { iso, object } from './present';

/** Whether `viewer` (a user id, SQL) applied to the current round of the `missions` row in scope. */
const appliedBy = (viewer: SQL) => {
  const a = missionApplications;
  return sql<boolean>`exists (select 1 from ${a} where ${a.missionId} = ${missions.id}
    and ${a.round} = ${missions.assignment} and ${a.agentId} = ${viewer})`;
};

/** How many applied to the current round of an APPLICATION `missions` row in scope (0 for any other). */
const applicantCount = () => {
  const a = missionApplications;
  return sql<number>`case when ${missions.assignmentMode} = 'APPLICATION' then (select count(*)::int from ${a}
    where ${a.missionId} = ${missions.id} and ${a.round} = ${missions.assignment}) else 0 end`;
};

/** The facts of the `missions` row in scope for the viewer `viewer` (SQL), as JSON text. */
export function actionFactsJson(viewer: SQL): SQL<string> {
  const m = missions;
  return sql<string>`${object({
    id: m.id,
    status: m.status,
    clientId: m.clientId,
    agentId: m.agentId,
    deadline: iso(m.deadline),
    reviewDeadline: iso(m.reviewDeadline),
    contestedAt: iso(m.contestedAt),
    contestCount: m.contestCount,
    bumpedAt: iso(m.bumpedAt),
    acceptedAt: iso(m.acceptedAt),
    assignmentMode: m.assignmentMode,
    // Every fact a routed row's guards read (lib/missions/transitions.ts): the named agent of a DIRECT mission,
    // an order's offering, when it was listed (a direct offer's accept window), and the milestones (a milestone
    // mission is neither bumped nor settled in part). One left out, and an action is listed that its route refuses.
    directAgentId: m.directAgentId,
    offeringId: m.offeringId,
    listedAt: iso(m.listedAt),
    submissionCount: m.submissionCount,
    milestoneCount: m.milestoneCount,
    milestone: m.milestone,
    milestoneContestCount: m.milestoneContestCount,
    entryCount: m.entryCount,
    entered: enteredBy(viewer),
    applied: appliedBy(viewer),
    applicants: applicantCount(),
  })}::text`;
}

const DATES = ['deadline', 'reviewDeadline', 'contestedAt', 'bumpedAt', 'acceptedAt', 'listedAt'] as const;

export function parseActionFacts(text: string): ActionFacts {
  const raw = JSON.parse(text) as Record<string, unknown>;
  for (const key of DATES) raw[key] = raw[key] === null ? null : new Date(raw[key] as string);
  return raw as unknown as ActionFacts;
}

/** The mission's JSON text with the caller's `actions`, decided from its facts' JSON text. */
export function viewWithActions<T extends string>(
  cfg: Config,
  view: T,
  facts: string | null,
  viewer: Viewer,
  now: Date,
): T {
  const actions: NextAction[] = facts ? nextActions(parseActionFacts(facts), viewer, now, cfg.missions) : [];
  return withActions(view, actions);
}
