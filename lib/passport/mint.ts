// Brings one PENDING passport to MINTED: recover a passport the wallet already holds, or follow a
// mint already sent, or send one — never two at once for a user (the row claim), never two on
// chain for a wallet (the contract allows one per wallet), and never more backend-paid mints an
// hour than MINT_BUDGET_PER_HOUR across all instances (docs/api.md#becoming-an-agent): past it, the passport
// waits PENDING for the sweep.
import 'server-only';
import type { Hex } from 'viem';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { getChainClients } from '../chain/clients';
import { mintCall, passportOf } from '../chain/passport';
import { sendSerialized } from '../chain/sender';
import { getKv } from '../kv';
import { log } from '../log';
import { claimPendingPassport, findPassport, markMinted, recordMintTx, releasePassport } from './queries';

const LEASE_MARGIN_MS = 30_000;

export async function mintPassport(db: Db, cfg: Config, userId: string, waitMs: number, now = new Date()) {
  const claimed = await claimPendingPassport(db, userId, now, waitMs + LEASE_MARGIN_MS);
  if (!claimed) return (await findPassport(db, userId))!;

  const clients = getChainClients();
  const contract = cfg.chain.passport;
  if (!clients?.registrar || !contract) return releasePassport(db, userId, 'chain not configured');
  const { publicClient, registrar } = clients;
  const holder = claimed.walletAddress as Hex;

  try {
    const held = await passportOf(publicClient, contract, holder);
    if (held > 0n) return markMinted(db, userId, held);

    if (claimed.txHash) {
      // A mint sent by an earlier attempt that is still waiting in the mempool: do not send another.
      const earlier = await publicClient.getTransaction({ hash: claimed.txHash as Hex }).catch(() => undefined);
      if (earlier && earlier.blockNumber === null) return releasePassport(db, userId, null);
    }

    if (!(await withinMintBudget(cfg, now))) return releasePassport(db, userId, 'mint budget exhausted');
    const hash = await sendSerialized(publicClient, registrar, { to: contract, data: mintCall(holder) }, (h) =>
      recordMintTx(db, userId, h),
    );
    const receipt = await publicClient
      .waitForTransactionReceipt({ hash, timeout: waitMs, pollingInterval: 250 })
      .catch(() => undefined);
    if (!receipt) return releasePassport(db, userId, null);
    if (receipt.status !== 'success') return releasePassport(db, userId, 'mint reverted');
    const minted = await passportOf(publicClient, contract, holder);
    if (minted > 0n) return markMinted(db, userId, minted);
    return releasePassport(db, userId, 'mint mined without a passport');
  } catch (error) {
    log.warn('passport.mint_failed', { userId, message: (error as Error).message?.split('\n')[0] });
    return releasePassport(db, userId, (error as Error).name ?? 'mint failed');
  }
}

const HOUR_MS = 3_600_000;

/** Counts one sponsored mint in this hour's window; answers whether the budget still allows it. */
async function withinMintBudget(cfg: Config, now: Date): Promise<boolean> {
  const hour = Math.floor(now.getTime() / HOUR_MS);
  const { count } = await getKv().hit(`mint-budget:${hour}`, HOUR_MS);
  return count <= cfg.chain.mintBudgetPerHour;
}
