// Who may see what (docs/api.md#missions): OPEN missions are public; any other mission only to its owner and
// its assigned agent; submission and contest files only to those two, and only the files of the
// current assignment to the agent. The operator and the system see everything.
import { sql } from 'drizzle-orm';
import { type MissionFileKind, type MissionStatus, missions } from '../db/schema/missions';

export type Viewer =
  | { kind: 'anonymous' }
  | { kind: 'user'; id: string; role: 'CLIENT' | 'AGENT' }
  | { kind: 'operator' }
  | { kind: 'system' };

export const ANONYMOUS: Viewer = { kind: 'anonymous' };
export const SYSTEM: Viewer = { kind: 'system' };
export const OPERATOR: Viewer = { kind: 'operator' };

interface Parties {
  status: MissionStatus;
  clientId: string;
  agentId: string | null;
}

const privileged = (viewer: Viewer) => viewer.kind === 'operator' || viewer.kind === 'system';

export function isOwner(m: Parties, viewer: Viewer): boolean {
  return viewer.kind === 'user' && viewer.id === m.clientId;
}

export function isAssignee(m: Parties, viewer: Viewer): boolean {
  return viewer.kind === 'user' && m.agentId !== null && viewer.id === m.agentId;
}

export function canSeeMission(m: Parties, viewer: Viewer): boolean {
  return m.status === 'OPEN' || privileged(viewer) || isOwner(m, viewer) || isAssignee(m, viewer);
}

/** A viewer as the values of the `viewer` and `privileged` placeholders that canSeeWork reads. */
export function viewerValues(viewer: Viewer): { viewer: string | null; privileged: boolean } {
  return { viewer: viewer.kind === 'user' ? viewer.id : null, privileged: privileged(viewer) };
}

/**
 * Whether the submission and the contests are shown: to the two parties and the operator only.
 * SQL on the `missions` row in scope, since the database writes the mission views (present.ts).
 */
export const canSeeWork = sql`(${sql.placeholder('privileged')}::boolean or ${missions.clientId} = ${sql.placeholder('viewer')}::uuid
  or ${missions.agentId} = ${sql.placeholder('viewer')}::uuid)`;

/** canSeeWork for an anonymous viewer: a constant, so the database drops the work's subqueries. */
export const ANONYMOUS_SEES_WORK = sql`false`;

export function canSeeFile(
  m: Parties & { assignment: number },
  file: { kind: MissionFileKind; assignment: number },
  viewer: Viewer,
): boolean {
  if (!canSeeMission(m, viewer)) return false;
  if (file.kind === 'ATTACHMENT') return true;
  if (privileged(viewer) || isOwner(m, viewer)) return true;
  // An agent who withdrew is no longer a party; a new agent never sees the last one's work.
  return isAssignee(m, viewer) && file.assignment === m.assignment;
}
