// POST /api/missions/{id}/decline (docs/api.md#declining): the named agent of a DIRECT mission turns it down;
// the table's `decline` row cancels it and refunds the client through the settlement outbox.
import 'server-only';
import { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missionReasonSchema } from '../missions/fields';
import type { Viewer } from '../missions/visibility';
import { act } from './mission-actions';

export const declineSchema = z.strictObject({
  reason: missionReasonSchema.optional().describe('Why the agent declines (shown to the client)'),
});

export const declineMission = (
  db: Db,
  cfg: Config,
  id: string,
  viewer: Viewer,
  input: z.infer<typeof declineSchema>,
  now: Date,
) => act(db, cfg, 'decline', id, viewer, { reason: input.reason }, now);
