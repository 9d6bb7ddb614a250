// Who may see what (docs/api.md#missions): OPEN missions are public; any other mission only to its owner and
// its assigned agent (and a bounty to its entrants, docs/api.md#bounties); submission and contest files only to those
// two, and only the files of the current assignment to the agent; an entry's files to the owner and
// their author, and to every entrant once the bounty is COMPLETED. The operator and the system see everything.
import { type SQL, sql } from 'drizzle-orm';
import { bountyEntries } from '../db/schema/bounties';
import { type MissionFileKind, type MissionStatus, missions } from '../db/schema/missions';
import type { Scope } from '../oauth/scopes';

export type Viewer =
  | { kind: 'anonymous' }
  // `scopes`: a delegated token's (docs/api.md#tokens); none for a wallet sign-in, which may do everything.
  | { kind: 'user'; id: string; role: 'CLIENT' | 'AGENT'; scopes?: readonly Scope[] }
  | { kind: 'operator' }
  | { kind: 'system' };

export const ANONYMOUS: Viewer = { kind: 'anonymous' };
export const SYSTEM: Viewer = { kind: 'system' };
export const OPERATOR: Viewer = { kind: 'operator' };

interface Parties {
  status: MissionStatus;
  clientId: string;
  agentId: string | null;
  /** docs/api.md#direct-missions: a DIRECT mission's named agent; OPEN, it is seen by its two parties only. */
  directAgentId?: string | null;
  /** The viewer entered this bounty (docs/api.md#bounties): it sees the mission, never the others' entries. */
  entered?: boolean;
}

const privileged = (viewer: Viewer) => viewer.kind === 'operator' || viewer.kind === 'system';

export function isOwner(m: Parties, viewer: Viewer): boolean {
  return viewer.kind === 'user' && viewer.id === m.clientId;
}

export function isAssignee(m: Parties, viewer: Viewer): boolean {
  return viewer.kind === 'user' && m.agentId !== null && viewer.id === m.agentId;
}

export function canSeeMission(m: Parties, viewer: Viewer): boolean {
  return (
    (m.status === 'OPEN' && !m.directAgentId) ||
    (viewer.kind === 'user' && !!m.directAgentId && viewer.id === m.directAgentId && m.status !== 'AWAITING_FUNDING') ||
    privileged(viewer) ||
    isOwner(m, viewer) ||
    isAssignee(m, viewer) ||
    (viewer.kind === 'user' && m.entered === true)
  );
}

/** A viewer as the values of the `viewer` and `privileged` placeholders that canSeeWork reads. */
export function viewerValues(viewer: Viewer): { viewer: string | null; privileged: boolean } {
  return { viewer: viewer.kind === 'user' ? viewer.id : null, privileged: privileged(viewer) };
}

/**
 * Whether the submission and the contests are shown: to the two parties and the operator only.
 * SQL on the `missions` row in scope, since the database writes the mission views (lib/board/present.ts).
 */
const viewerId = sql.placeholder('viewer');
export const canSeeWork = sql`(${sql.placeholder('privileged')}::boolean or ${missions.clientId} = ${viewerId}::uuid
  or ${missions.agentId} = ${viewerId}::uuid)`;

/**
 * Whether `viewer` (a user id, SQL) entered the bounty of the `missions` row in scope. Nested one
 * level: Drizzle drops the table from a single-table select field's own columns, and the
 * subquery's `id` would then be the entry's.
 */
export const enteredBy = (viewer: SQL) => {
  const e = bountyEntries;
  const exists = sql`exists (select 1 from ${e} where ${e.missionId} = ${missions.id} and ${e.agentId} = ${viewer})`;
  return sql<boolean>`${exists}`;
};

/** canSeeWork for an anonymous viewer: a constant, so the database drops the work's subqueries. */
export const ANONYMOUS_SEES_WORK = sql`false`;

/** canSeeWork for the mission's client or agent, which every `mine` list's caller is of its rows. */
export const PARTY_SEES_WORK = sql`true`;

export function canSeeFile(
  m: Parties & { assignment: number },
  file: { kind: MissionFileKind; assignment: number; uploaderId: string },
  viewer: Viewer,
): boolean {
  if (!canSeeMission(m, viewer)) return false;
  if (file.kind === 'ATTACHMENT') return true;
  if (privileged(viewer) || isOwner(m, viewer)) return true;
  // docs/api.md#bounties: an entry's files are its author's until the bounty is COMPLETED, then every entrant's.
  if (file.kind === 'ENTRY')
    return (
      viewer.kind === 'user' && (file.uploaderId === viewer.id || (m.status === 'COMPLETED' && m.entered === true))
    );
  // An agent who withdrew is no longer a party; a new agent never sees the last one's work.
  return isAssignee(m, viewer) && file.assignment === m.assignment;
}
