// The periodic sweep (docs/api.md#sweep): everything that time or a failed call left unfinished.
// Safe to run concurrently: each item is claimed by a conditional write before it is worked on.
import 'server-only';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { deleteOldConfirmations } from '../confirmations';
import type { Kv } from '../kv';
import { cancelReclaimedMissions, reactToSettlement, sweepFundings } from '../funding';
import { applyDueTransitions } from '../missions';
import { deleteUnusedClients } from '../oauth/clients';
import { retryPendingPassports } from '../passport';
import { retryPendingSettlements } from '../settlements';
import { retryPendingFeedback } from '../erc8004';
import { deleteOldWebhookData, deliverPending } from '../webhooks';

export async function runSweep(db: Db, kv: Kv, cfg: Config, now = new Date()) {
  const missions = {
    ...(await applyDueTransitions(db, cfg, now)),
    ...(await cancelReclaimedMissions(db, kv, cfg, now)),
  };
  // docs/api.md#post-and-pay: relays left in flight are carried on; missions unfunded for 24 h go.
  const fundings = await sweepFundings(db, cfg, now);
  const passports = await retryPendingPassports(db, cfg);
  const settlements = await retryPendingSettlements(db, cfg, reactToSettlement);
  // docs/api.md#erc-8004-feedback: after the payouts it waits for.
  const feedback = await retryPendingFeedback(db, cfg);
  const webhooks = { ...(await deliverPending(db, cfg, now)), retention: await deleteOldWebhookData(db, cfg, now) };
  // docs/api.md#tokens: anonymous registrations cost a row each; unused for 30 days, they go.
  const oauthClients = { deleted: await deleteUnusedClients(db, now) };
  const confirmations = { deleted: await deleteOldConfirmations(db, cfg, now) };
  return { missions, fundings, passports, settlements, feedback, webhooks, oauthClients, confirmations };
}
