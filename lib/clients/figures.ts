// A client's track record as figures (docs/api.md#client-record), for any number of clients in one
// statement: the missions' states (funded, completed, settled after a delivery) and the mission log's
// events (lib/missions/events.ts) — approvals, silences, contests, the operator's resolutions,
// cancellations and reclaims after an agent took the mission, and each decision's time since the
// submission it decided. The board asks it once for a whole page's clients, never once per item.
import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { arrayLiteral } from '../db/array-literal';
import { builtOnce } from '../db/prepared';
import type { Db } from '../db/client';
import { missionEvents, missions, users } from '../db/schema';
import type { ClientRecord, ClientStats } from './schemas';

// The events the record reads; every other action of the log is left out of the window below.
const ACTIONS = ['submit', 'approve', 'expire', 'contest', 'resolveComplete', 'cancel', 'reclaimed'];

const count = (condition: ReturnType<typeof sql>) => sql<number>`(count(*) filter (where ${condition}))::int`;

/**
 * Each client's record by (lowercase) wallet address, in one statement; a user with no mission has all
 * zeros (and nulls), an address of nobody is absent.
 */
export async function clientRecordsOf(db: Db, walletAddresses: readonly string[]): Promise<Map<string, ClientRecord>> {
  const wallets = [...new Set(walletAddresses)];
  const records = new Map<string, ClientRecord>();
  if (wallets.length === 0) return records;
  const rows = await recordsStatement(db, 'records').execute({ wallets: arrayLiteral(wallets) });
  for (const row of rows) {
    const approved = Number(row.approved) + Number(row.silent);
    const delivered = Number(row.delivered);
    records.set(row.wallet, {
      funded: Number(row.funded),
      completed: Number(row.completed),
      approvedExplicitly: Number(row.approved),
      approvedBySilence: Number(row.silent),
      contestsRaised: Number(row.contests),
      contestsDecidedForAgent: Number(row.forAgent),
      cancelledAfterAcceptance: Number(row.cancelledAfter),
      medianDecisionSeconds: row.median === null ? null : Number(row.median),
      unfundedLapsed: row.lapsed,
      approvalRate: delivered === 0 ? null : Math.round((Math.min(approved, delivered) / delivered) * 10_000) / 10_000,
    });
  }
  return records;
}

// The board reads it on every page: built and prepared once per database handle (lib/db/prepared.ts), its
// wallets one array parameter, so neither drizzle's building nor PostgreSQL's planning is paid per page.
const recordsStatement = builtOnce((db: Db, _shape: 'records') => {
  const chosen = sql`${users.walletAddress} = any(${sql.placeholder('wallets')}::text[])`;
  const ids = db.select({ id: users.id }).from(users).where(chosen);
  const states = db.$with('states').as(
    db
      .select({
        clientId: missions.clientId,
        funded: count(sql`${missions.status} <> 'AWAITING_FUNDING'`).as('funded'),
        completed: count(sql`${missions.status} = 'COMPLETED'`).as('completed'),
        // The approval rate's denominator: missions that ended after the agent delivered at least once.
        delivered: count(sql`${missions.status} in ('COMPLETED', 'CANCELLED') and ${missions.submissionCount} > 0`).as(
          'delivered',
        ),
      })
      .from(missions)
      .where(inArray(missions.clientId, ids))
      .groupBy(missions.clientId),
  );
  // Each event beside the one before it on its mission: a decision's previous event is the submission it decided.
  const log = db.$with('log').as(
    db
      .select({
        clientId: sql<string>`${missions.clientId}`.as('log_client_id'),
        action: missionEvents.action,
        actor: missionEvents.actor,
        fromStatus: missionEvents.fromStatus,
        createdAt: sql`${missionEvents.createdAt}`.as('log_created_at'),
        previousAction: sql<string | null>`lag(${missionEvents.action}) over (partition by ${missionEvents.missionId}
          order by ${missionEvents.id})`.as('previous_action'),
        previousAt: sql`lag(${missionEvents.createdAt}) over (partition by ${missionEvents.missionId}
          order by ${missionEvents.id})`.as('previous_at'),
      })
      .from(missionEvents)
      .innerJoin(missions, eq(missions.id, missionEvents.missionId))
      .where(and(inArray(missions.clientId, ids), inArray(missionEvents.action, ACTIONS))),
  );
  const events = db.$with('events').as(
    db
      .select({
        clientId: sql<string>`${log.clientId}`.as('events_client_id'),
        approved: count(sql`${log.action} = 'approve'`).as('approved'),
        silent: count(sql`${log.action} = 'expire'`).as('silent'),
        contests: count(sql`${log.action} = 'contest' and ${log.actor} = 'OWNER'`).as('contests'),
        forAgent: count(sql`${log.action} = 'resolveComplete'`).as('for_agent'),
        // The client walked away from an agent's work: cancelled, or reclaimed the escrow on-chain.
        cancelledAfter: count(sql`(${log.action} = 'cancel' and ${log.actor} = 'OWNER'
          and ${log.fromStatus} in ('ACCEPTED', 'CONTESTED'))
          or (${log.action} = 'reclaimed' and ${log.fromStatus} not in ('OPEN', 'AWAITING_FUNDING'))`).as(
          'cancelled_after',
        ),
        median: sql<number | null>`round(percentile_cont(0.5) within group (order by
          greatest(extract(epoch from ${log.createdAt} - ${log.previousAt}), 0))
          filter (where ${log.action} in ('approve', 'contest') and ${log.actor} = 'OWNER'
          and ${log.previousAction} = 'submit'))::int`.as('median_seconds'),
      })
      .from(log)
      .groupBy(log.clientId),
  );
  return db
    .with(states, log, events)
    .select({
      wallet: users.walletAddress,
      lapsed: users.unfundedLapsed,
      funded: sql<number>`coalesce(${states.funded}, 0)`,
      completed: sql<number>`coalesce(${states.completed}, 0)`,
      delivered: sql<number>`coalesce(${states.delivered}, 0)`,
      approved: sql<number>`coalesce(${events.approved}, 0)`,
      silent: sql<number>`coalesce(${events.silent}, 0)`,
      contests: sql<number>`coalesce(${events.contests}, 0)`,
      forAgent: sql<number>`coalesce(${events.forAgent}, 0)`,
      cancelledAfter: sql<number>`coalesce(${events.cancelledAfter}, 0)`,
      median: events.median,
    })
    .from(users)
    .leftJoin(states, eq(states.clientId, users.id))
    .leftJoin(events, eq(events.clientId, users.id))
    .where(chosen)
    .prepare('client_records');
});

/** The compact figures the board and find_missions carry (docs/api.md#client-record). */
export const statsOf = (record: ClientRecord): ClientStats => ({
  funded: record.funded,
  completed: record.completed,
  approvalRate: record.approvalRate,
  medianDecisionSeconds: record.medianDecisionSeconds,
});
