// The one door a state change leaves by (docs/api.md#one-door): after any request that succeeded and wrote
// outbox rows — whichever route it was, an approve or a read that found a review window over — its
// settlements go to the chain, then the ERC-8004 feedback they decided once the payout is mined, and
// the webhook events go out once the response has gone. The sweep retries whatever fails here.
import 'server-only';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { sendMissionFeedback } from '../erc8004';
import { log } from '../log';
import { reactToSettlement } from '../funding/reclaimed';
import { settleMission } from '../settlements';
import type { OutboxMarks } from '../outbox/marks';

/** Sends the marked missions' settlements, then their feedback; never throws: the change is committed. */
export async function drainMissionSends(db: Db, cfg: Config, marks: OutboxMarks): Promise<void> {
  for (const missionId of marks.missions) {
    try {
      await settleMission(db, cfg, missionId, reactToSettlement);
      await sendMissionFeedback(db, cfg, missionId);
    } catch (error) {
      log.warn('outbox.drain_deferred', { missionId, message: (error as Error).message });
    }
  }
}
