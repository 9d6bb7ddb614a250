// Bounty fixtures (docs/api.md#bounties): bounties posted, entered, judged and awarded through the real
// route handlers, and the clock of one bounty moved in the database (no sleeping in tests).
import { POST as awardRoute } from '@/app/api/missions/[id]/award/route';
import { GET as listEntriesRoute, POST as entriesRoute } from '@/app/api/missions/[id]/entries/route';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { call, type CallResult } from './http';
import { type FilePart, upload } from './multipart';
import { act, createMission, missionRow, type Party, setTimes } from './missions';

export async function createBounty(client: Party, overrides: Record<string, unknown> = {}) {
  return createMission(client, { assignment: 'BOUNTY', winners: 2, ...overrides });
}

/** An entry: JSON `{ note }`, or multipart when files come along. */
export function enter(agent: Party, id: string, note: string, files?: FilePart[]): Promise<CallResult> {
  if (files) return upload(entriesRoute, { token: agent.token, params: { id }, fields: { note }, files });
  return call(entriesRoute, { method: 'POST', token: agent.token, params: { id }, body: { note } });
}

export const entriesOf = (party: Party | undefined, id: string, query = '') =>
  call(listEntriesRoute, { token: party?.token, params: { id }, path: `/api/missions/${id}/entries${query}` });

export const award = (party: Party | undefined, id: string, body: unknown) =>
  call(awardRoute, { method: 'POST', token: party?.token, params: { id }, body });

export const contestAward = (entrant: Party, id: string, reason = 'My entry met every criterion.') =>
  act('contest', entrant, id, { reason });

export const sweep = () =>
  call(sweepRoute, { method: 'POST', headers: { authorization: `Bearer ${process.env.CRON_SECRET}` } });

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);

/** The deadline passes: the next read or sweep judges the bounty (or lapses it without entries). */
export const closeEntries = (id: string) => setTimes(id, { deadline: ago(1) });

/** The client's judging window (or the entrants' contest window) runs out. */
export const endWindow = (id: string) => setTimes(id, { reviewDeadline: ago(1) });

export async function statusOf(id: string) {
  return (await missionRow(id)).status;
}
