// Mission fixtures: clients and agents signed in through the real endpoints, missions created and
// moved through the real route handlers, and direct database reads for checking end states.
import { eq, sql } from 'drizzle-orm';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
import { POST as acceptRoute } from '@/app/api/missions/[id]/accept/route';
import { POST as approveRoute } from '@/app/api/missions/[id]/approve/route';
import { POST as bumpRoute } from '@/app/api/missions/[id]/bump/route';
import { POST as cancelRoute } from '@/app/api/missions/[id]/cancel/route';
import { POST as contestRoute } from '@/app/api/missions/[id]/contest/route';
import { GET as missionRoute } from '@/app/api/missions/[id]/route';
import { POST as submitRoute } from '@/app/api/missions/[id]/submit/route';
import { POST as resolveRoute } from '@/app/api/admin/missions/[id]/resolve/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { getDb } from '@/lib/db/client';
import { agentEarnings, fileBlobs, missionEvents, missionFiles, missions } from '@/lib/db/schema';
import { call, type CallResult } from './http';
import { signIn } from './wallets';

export const routes = {
  accept: acceptRoute,
  approve: approveRoute,
  bump: bumpRoute,
  cancel: cancelRoute,
  contest: contestRoute,
  submit: submitRoute,
} as const;
export type RouteAction = keyof typeof routes;

export interface Party {
  token: string;
  address: string;
  id: string;
}

export async function newClient(): Promise<Party> {
  const { token, user } = await signIn();
  return { token, address: user.walletAddress, id: user.id };
}

export async function newAgent(): Promise<Party> {
  const { token: clientToken, user } = await signIn();
  const response = await call(registerAgent, { token: clientToken, method: 'POST' });
  if (response.status !== 200) throw new Error(`register-agent: ${response.status} ${JSON.stringify(response.body)}`);
  return { token: response.body.token, address: user.walletAddress, id: user.id };
}

export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

export function missionInput(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Label 500 product photos',
    description: 'Bounding boxes around every product, exported as COCO JSON.',
    category: 'data',
    tags: ['vision', 'labeling'],
    reward: '25000000',
    deadline: inDays(7),
    ...overrides,
  };
}

export async function createMission(client: Party, overrides: Record<string, unknown> = {}) {
  const response = await call(createRoute, { token: client.token, body: missionInput(overrides) });
  if (response.status !== 201) throw new Error(`create: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { id: string; [key: string]: any };
}

export function act(action: RouteAction, party: Party | undefined, id: string, body?: unknown): Promise<CallResult> {
  return call(routes[action], { method: 'POST', token: party?.token, params: { id }, body });
}

export const getMission = (party: Party | undefined, id: string) =>
  call(missionRoute, { token: party?.token, params: { id } });

export const ADMIN = { authorization: `Bearer ${process.env.ADMIN_TOKEN ?? 'test-admin-token-0123456789abcdef'}` };

export const resolve = (id: string, body: unknown, headers: Record<string, string> = ADMIN) =>
  call(resolveRoute, { method: 'POST', params: { id }, body, headers });

/** Expect a step to succeed: the mission after it. */
export async function ok(result: Promise<CallResult> | CallResult) {
  const response = await result;
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export type Status = 'OPEN' | 'ACCEPTED' | 'SUBMITTED' | 'CONTESTED' | 'DISPUTED' | 'COMPLETED' | 'CANCELLED';

/**
 * A mission brought to `status` through the real routes (DISPUTED goes through MAX_CONTESTS + 1
 * contests). A fresh client each time (creating is limited per client); the agent may be shared.
 */
export async function missionIn(
  status: Status,
  options: { agent?: Party; maxContests?: number; input?: Record<string, unknown> } = {},
) {
  const client = await newClient();
  const agent = options.agent ?? (await newAgent());
  const { id } = await createMission(client, options.input);
  if (status === 'CANCELLED') await ok(act('cancel', client, id));
  if (status === 'OPEN' || status === 'CANCELLED') return { client, agent, id };
  await ok(act('accept', agent, id));
  if (status === 'ACCEPTED') return { client, agent, id };
  await ok(act('submit', agent, id, { note: 'Done: see the export.' }));
  if (status === 'COMPLETED') await ok(act('approve', client, id));
  if (status === 'CONTESTED') await ok(act('contest', client, id, { reason: 'Boxes are off by a few pixels.' }));
  if (status === 'DISPUTED') {
    for (let round = 1; round <= (options.maxContests ?? 2); round += 1) {
      await ok(act('contest', client, id, { reason: `Round ${round}: still wrong.` }));
      await ok(act('submit', agent, id, { note: `Fixed, round ${round}.` }));
    }
    await ok(act('contest', client, id, { reason: 'Still wrong; I want the operator.' }));
  }
  return { client, agent, id };
}

// --- direct database access: end states, and moving the clock of one mission ---

export async function db() {
  return getDb();
}

export async function missionRow(id: string) {
  const [row] = await (await getDb()).select().from(missions).where(eq(missions.id, id));
  return row!;
}

export async function eventsOf(id: string) {
  return (await getDb()).select().from(missionEvents).where(eq(missionEvents.missionId, id)).orderBy(missionEvents.id);
}

export async function earningsOf(missionId: string) {
  return (await getDb()).select().from(agentEarnings).where(eq(agentEarnings.missionId, missionId));
}

export async function filesOf(missionId: string) {
  return (await getDb()).select().from(missionFiles).where(eq(missionFiles.missionId, missionId));
}

export async function blobExists(sha256: string): Promise<boolean> {
  const rows = await (await getDb())
    .select({ sha256: fileBlobs.sha256 })
    .from(fileBlobs)
    .where(eq(fileBlobs.sha256, sha256));
  return rows.length > 0;
}

export async function missionCountOf(clientId: string): Promise<number> {
  const [row] = await (await getDb())
    .select({ n: sql<number>`count(*)::int` })
    .from(missions)
    .where(eq(missions.clientId, clientId));
  return row!.n;
}

/** Moves a mission's clock: sets its time columns as if the time had passed (no sleeping in tests). */
export async function setTimes(
  id: string,
  times: Partial<Record<'deadline' | 'reviewDeadline' | 'contestedAt' | 'acceptedAt', Date>>,
) {
  await (await getDb()).update(missions).set(times).where(eq(missions.id, id));
}

export const past = (seconds = 1) => new Date(Date.now() - seconds * 1000);

/**
 * A list item as the mission's own GET answers it: without the client.stats only list items carry
 * (docs/api.md#client-record); checked present, so dropping it hides nothing.
 */
export function withoutClientStats<T>(item: T): T {
  const { client } = item as { client: { walletAddress: string; stats?: unknown } };
  if (client.stats === undefined) throw new Error('a list item without client.stats');
  return { ...item, client: { walletAddress: client.walletAddress } };
}
