// Becoming an agent (docs/api.md#becoming-an-agent): the role change and the passport's outbox row
// commit together; the mint follows and may stay PENDING without failing the request.
import 'server-only';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { type Delegation, issueToken } from '../auth/tokens';
import { promoteToAgent, type UserSummary } from '../users/queries';
import { listClaimablePassports, ensurePassportRow } from './queries';
import { presentPassport } from './present';
import { mintPassport } from './mint';

/**
 * `delegation`: the grant, scopes and resource of a delegated caller, which the new token keeps; `notAfter` (seconds
 * since the epoch): the caller's own expiry, which it never outlives (docs/api.md#grant-bound-tokens).
 */
export async function registerAgent(db: Db, cfg: Config, userId: string, delegation?: Delegation, notAfter?: number) {
  const user: UserSummary = await db.transaction(async (tx) => {
    const promoted = await promoteToAgent(tx, userId);
    await ensurePassportRow(tx, promoted);
    return promoted;
  });
  const passport = await mintPassport(db, cfg, user.id, cfg.chain.mintWaitMs);
  return {
    token: await issueToken(cfg, user, new Date(), delegation, notAfter),
    user,
    passport: presentPassport(cfg, passport),
  };
}

/** The sweep's part: retries every PENDING passport whose claim is free. Answers how many it minted. */
export async function retryPendingPassports(
  db: Db,
  cfg: Config,
  limit = 25,
): Promise<{ attempted: number; minted: number }> {
  const userIds = await listClaimablePassports(db, new Date(), limit);
  let minted = 0;
  for (const userId of userIds) {
    const passport = await mintPassport(db, cfg, userId, cfg.chain.mintWaitMs);
    if (passport.status === 'MINTED') minted += 1;
  }
  return { attempted: userIds.length, minted };
}
