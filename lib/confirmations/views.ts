// Confirmations as the person and the asking token see them (docs/api.md#confirmations): the mission, the
// amount, who receives what — from the terms stored when it was asked, with their termsHash — the request
// as it was sent and the grant that sent it; one confirmation also shows its terms as they are now.
import 'server-only';
import { and, desc, eq, gt, inArray } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { confirmations, grants, missions, users } from '../db/schema';
import { ApiError, DependencyDown } from '../errors';
import type { Caller } from '../oauth/caller';
import { payoutOf } from '../missions/shares';
import { splitReward } from '../missions/ledger';
import { findMission } from '../missions/queries';
import { escrowAmountOf } from './escrow-amount';
import { confirmationUrl } from './requests';
import type { ConfirmationView } from './schemas';
import { type ConfirmationTerms, changedTerms, termsHash, termsOf } from './terms';

type Row = typeof confirmations.$inferSelect;

/** At most this many listed: a grant holds at most 20 pending, and a person's list is read whole. */
const LIST_MAX = 100;

async function present(db: Db, cfg: Config, rows: Row[], now: Date): Promise<ConfirmationView[]> {
  if (rows.length === 0) return [];
  const missionIds = [...new Set(rows.map((r) => r.missionId))];
  const grantIds = [...new Set(rows.map((r) => r.grantId))];
  const [missionRows, grantRows] = await Promise.all([
    db
      .select({
        id: missions.id,
        title: missions.title,
        status: missions.status,
        reward: missions.reward,
        feeBps: missions.feeBps,
        winners: missions.winners,
        split: missions.split,
        agent: users.walletAddress,
      })
      .from(missions)
      .leftJoin(users, eq(users.id, missions.agentId))
      .where(inArray(missions.id, missionIds)),
    db
      .select({ id: grants.id, name: grants.name, kind: grants.kind, clientId: grants.clientId })
      .from(grants)
      .where(inArray(grants.id, grantIds)),
  ]);
  const missionById = new Map(missionRows.map((m) => [m.id, m]));
  const grantById = new Map(grantRows.map((g) => [g.id, g]));
  return rows.map((row) => {
    const m = missionById.get(row.missionId)!;
    const g = grantById.get(row.grantId)!;
    const expired = row.status === 'PENDING' && row.expiresAt <= now;
    return {
      id: row.id,
      url: confirmationUrl(cfg, row.id),
      status: expired ? 'EXPIRED' : row.status,
      reason: row.reason,
      action: row.action as 'approve' | 'award' | 'settle',
      amount: String(row.amount),
      terms: row.terms,
      termsHash: row.terms ? termsHash(row.terms) : null,
      mission: { id: m.id, title: m.title, status: m.status, reward: String(m.reward) },
      recipients: row.terms ? recipientsOfTerms(row.terms, m) : recipientsOf(row, m),
      body: row.body,
      grant: {
        id: g.id,
        name: g.name,
        kind: g.kind === 'OAUTH' ? 'oauth' : 'token',
        clientDomain: g.kind === 'OAUTH' ? documentHostOf(g.clientId) : null,
      },
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      decidedAt: row.decidedAt?.toISOString() ?? null,
    };
  });
}

type MissionFacts = {
  reward: string;
  feeBps: number;
  winners: number | null;
  split: number[] | null;
  agent: string | null;
};

/** Who is paid what: the agent the reward less the fee; each winner of an award its place's share. */
function recipientsOf(row: Row, m: MissionFacts) {
  if (row.action === 'settle') return [];
  if (row.action === 'approve') {
    return m.agent ? [{ walletAddress: m.agent, amount: splitReward(BigInt(m.reward), m.feeBps).net.toString() }] : [];
  }
  const addresses = Array.isArray(row.body.winners) ? (row.body.winners as string[]) : [];
  const payout = payoutOf(
    BigInt(m.reward),
    m.feeBps,
    m.winners ?? 1,
    m.split,
    addresses.map((address, i) => ({ agentId: address, address, place: i + 1 })),
  );
  return payout.winners.map((w) => ({ walletAddress: w.address, amount: w.amount.toString() }));
}

/** Who is paid what on the stored terms: what the person was asked, whatever the mission is now. */
function recipientsOfTerms(terms: ConfirmationTerms, m: MissionFacts) {
  const released = BigInt(terms.taskAmount ?? terms.reward);
  if (terms.action === 'settle') {
    const part = BigInt(terms.agentAmount ?? '0');
    return terms.agent ? [{ walletAddress: terms.agent, amount: splitReward(part, m.feeBps).net.toString() }] : [];
  }
  if (terms.action === 'approve') {
    return terms.agent ? [{ walletAddress: terms.agent, amount: splitReward(released, m.feeBps).net.toString() }] : [];
  }
  const addresses = terms.winners ?? [];
  const payout = payoutOf(
    released,
    m.feeBps,
    m.winners ?? 1,
    m.split,
    addresses.map((address, i) => ({ agentId: address, address, place: i + 1 })),
  );
  return payout.winners.map((w) => ({ walletAddress: w.address, amount: w.amount.toString() }));
}

/** An OAuth client named by its metadata document's URL: that document's host; a registered client: null. */
function documentHostOf(clientId: string | null): string | null {
  if (!clientId?.startsWith('https://')) return null;
  try {
    return new URL(clientId).host;
  } catch {
    return null;
  }
}

/** The person's confirmations still waiting, newest first. */
export async function listPending(db: Db, cfg: Config, userId: string, now: Date): Promise<ConfirmationView[]> {
  const rows = await db
    .select()
    .from(confirmations)
    .where(and(eq(confirmations.userId, userId), eq(confirmations.status, 'PENDING'), gt(confirmations.expiresAt, now)))
    .orderBy(desc(confirmations.createdAt))
    .limit(LIST_MAX);
  return present(db, cfg, rows, now);
}

/** One confirmation, for the person (a wallet sign-in) or the token that asked; anyone else: 404. */
export async function getConfirmation(
  db: Db,
  cfg: Config,
  caller: Caller,
  id: string,
  now: Date,
  { live = true }: { live?: boolean } = {},
): Promise<ConfirmationView> {
  const [row] = await db.select().from(confirmations).where(eq(confirmations.id, id)).limit(1);
  const mayRead = row && row.userId === caller.user.id && (caller.grant ? caller.grant.id === row.grantId : true);
  if (!mayRead) throw new ApiError(404, 'Confirmation not found');
  const view = (await present(db, cfg, [row], now))[0]!;
  if (!live || !row.terms) return view;
  try {
    return { ...view, live: await liveTerms(db, cfg, row.userId, row.terms, row.body) };
  } catch (error) {
    // The chain unreachable: the stored terms still show; an approval would read it again anyway.
    if (error instanceof DependencyDown) return view;
    throw error;
  }
}

/** The stored terms as they are now: the mission's row, and the escrow task read from the chain. */
async function liveTerms(
  db: Db,
  cfg: Config,
  clientId: string,
  stored: ConfirmationTerms,
  body: Record<string, unknown>,
) {
  const mission = (await findMission(db, stored.missionId))!;
  const taskAmount = await escrowAmountOf(db, cfg, stored.missionId, clientId);
  const terms = await termsOf(db, mission, stored.action, body, taskAmount);
  return { terms, termsHash: termsHash(terms), changed: changedTerms(stored, terms) };
}
