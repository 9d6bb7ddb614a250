// The operator's retry of a FAILED settlement (docs/api.md#settlements), with the missions reacting
// to how it ended: a release the client's reclaim superseded cancels its mission.
import 'server-only';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { reactToSettlement } from '../funding';
import { retryFailedSettlement } from '../settlements';

export const retrySettlement = (db: Db, cfg: Config, id: string) =>
  retryFailedSettlement(db, cfg, id, reactToSettlement);
