// POST /api/offerings/{id}/orders (docs/api.md#offerings): one call makes a DIRECT mission for the offering's
// agent at its price, with its criteria and the client's requirements checked against its schema. It waits
// AWAITING_FUNDING for post and pay (lib/funding); funded, the transition table's `acceptOrder` gives it to
// the agent (lib/funding/process.ts markFunded). The places are counted with the offering's row locked, then
// the agent's: two orders racing for the last one place exactly one.
import 'server-only';
import { and, count, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missions, offerings, users } from '../db/schema';
import { ApiError } from '../errors';
import { ACTIVE_MISSION_STATUSES } from '../fields';
import type { MissionJson } from '../board/present';
import { getMissionOrThrow } from '../board/views';
import { criteriaHash } from '../missions/criteria';
import { recordEvent } from '../missions/events';
import { missionColumns } from '../missions/queries';
import { writeTransition } from '../missions/apply-transition';
import { SYSTEM } from '../missions/visibility';
import { FundingAtOnce } from '../funding/at-once';
import { assertUnfundedRoom, FUNDING_WINDOW_MS, fundingTermsAt } from '../funding/terms';
import { checkRequirements } from './requirements';
import type { OrderInput } from './schemas';
import { OPEN_ORDER_STATUSES } from './views';

const refuse = (message: string, detail: string) => new ApiError(409, message, [detail]);

export async function placeOrder(
  db: Db,
  cfg: Config,
  client: { id: string; walletAddress: string },
  offeringId: string,
  input: OrderInput,
  now: Date,
  delegation?: { grantId: string },
): Promise<MissionJson> {
  const [offering] = await db.select().from(offerings).where(eq(offerings.id, offeringId)).limit(1);
  if (!offering) throw new ApiError(404, 'Offering not found');
  if (!offering.active) throw refuse('The offering is inactive', 'offering: no longer taking orders');
  checkRequirements(offering, input.requirements);
  const unfunded = Boolean(cfg.chain.escrow);
  // docs/api.md#standing-allowance: an order by a delegated token may be funded at once, as a post.
  const atOnce = await FundingAtOnce.begin(db, cfg, client, delegation?.grantId, unfunded);
  let id: string;
  try {
    id = await db.transaction(async (tx) => {
      // The offering first, then its agent (capacity), then the client (unfunded room): one order, no deadlock.
      const [locked] = await tx.select().from(offerings).where(eq(offerings.id, offeringId)).for('update');
      if (!locked?.active) throw refuse('The offering is inactive', 'offering: no longer taking orders');
      await assertPlaces(tx, cfg, locked);
      if (unfunded) await assertUnfundedRoom(tx, cfg, client.id);
      // The deadline the task's expiry is fixed for: the latest the SLA can end, funded at the last moment.
      const deadline = new Date(now.getTime() + FUNDING_WINDOW_MS + locked.slaHours * 3_600_000);
      const mission = await atOnce.within(tx, BigInt(locked.price), now, async () => {
        const [mission] = await tx
          .insert(missions)
          .values({
            clientId: client.id,
            title: input.title ?? locked.title,
            description: input.description ?? locked.description,
            category: locked.category,
            tags: locked.tags,
            reward: locked.price,
            feeBps: cfg.missions.feeBps,
            deadline,
            status: unfunded ? 'AWAITING_FUNDING' : 'OPEN',
            escrow: unfunded ? cfg.chain.escrow! : null,
            ...(unfunded ? fundingTermsAt(cfg, deadline, false) : {}),
            assignmentMode: 'DIRECT',
            directAgentId: locked.agentId,
            offeringId: locked.id,
            offeringTitle: locked.title,
            requirements: input.requirements ?? null,
            slaHours: locked.slaHours,
            criteria: locked.criteria,
            criteriaHash: locked.criteria ? criteriaHash(locked.criteria) : null,
            listedAt: now,
            createdAt: now,
            updatedAt: now,
          })
          .returning(missionColumns);
        await recordEvent(tx, {
          missionId: mission!.id,
          clientId: client.id,
          viewer: { kind: 'user', id: client.id, role: 'CLIENT' },
          action: 'create',
          from: null,
          to: mission!.status,
          data: {},
          now,
        });
        // Bookkeeping mode (no escrow): nothing to fund, the order is the agent's at once.
        if (!unfunded)
          await writeTransition(tx, cfg, 'acceptOrder', mission!, SYSTEM, { assigneeId: locked.agentId }, now);
        return mission!.id;
      });
      return mission;
    });
  } catch (error) {
    atOnce.rolledBack();
    await atOnce.giveBack();
    throw error;
  }
  const mission = () => getMissionOrThrow(db, cfg, id, { kind: 'user', id: client.id, role: 'CLIENT' }, now);
  return unfunded ? atOnce.finish(db, id, mission, now) : mission();
}

/**
 * docs/api.md#offerings: the offering's maxOpenOrders and the agent's MAX_ACTIVE_MISSIONS, each counting
 * orders not yet funded as well as work in progress — a funded order is the agent's at once and cannot be
 * refused then.
 */
async function assertPlaces(tx: Db, cfg: Config, offering: typeof offerings.$inferSelect): Promise<void> {
  const [open] = await tx
    .select({ n: count() })
    .from(missions)
    .where(and(eq(missions.offeringId, offering.id), inArray(missions.status, [...OPEN_ORDER_STATUSES])));
  if ((open?.n ?? 0) >= offering.maxOpenOrders)
    throw refuse(
      'The offering has no open place',
      `maxOpenOrders: this offering takes at most ${offering.maxOpenOrders} orders unfunded or in progress at once`,
    );
  await tx.select({ id: users.id }).from(users).where(eq(users.id, offering.agentId)).for('update');
  const [busy] = await tx
    .select({ n: count() })
    .from(missions)
    .where(
      or(
        and(eq(missions.agentId, offering.agentId), inArray(missions.status, [...ACTIVE_MISSION_STATUSES])),
        and(
          eq(missions.directAgentId, offering.agentId),
          isNotNull(missions.offeringId),
          eq(missions.status, 'AWAITING_FUNDING'),
        ),
      ),
    );
  const max = cfg.missions.maxActive;
  if ((busy?.n ?? 0) >= max)
    throw refuse(
      'The agent is at capacity',
      `MAX_ACTIVE_MISSIONS: the agent holds at most ${max} missions in progress (unfunded orders counted)`,
    );
}
