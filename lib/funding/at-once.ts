// docs/api.md#standing-allowance: a delegated post (POST /api/missions) or order (POST /api/offerings/{id}/orders)
// funded at once from the person's mandate, in three steps around the creating transaction: the standing read
// from the chain and the person's relay unit taken before it; inside it, every cap decided under the grant's
// row lock and, when funded, the grant's use and the createTaskFor relay recorded with the mission; after it,
// the unit given back when nothing was recorded, or the relay sent and the answer saying where it stands.
import 'server-only';
import { eq } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missionFundings } from '../db/schema';
import { getKv } from '../kv';
import type { MissionJson } from '../board/present';
import {
  chargeMandateRelay,
  decideFunding,
  type FundingDecision,
  giveBackMandateRelay,
  readStanding,
  type Standing,
} from './mandate';
import { processFunding } from './process';
import { fundByOf, withFundingLink } from './terms';

export class FundingAtOnce {
  /** What the transaction decided; undefined until it committed (a rolled-back decision records nothing). */
  private decision: FundingDecision | undefined;

  private constructor(
    private readonly cfg: Config,
    private readonly clientId: string,
    private readonly grantId: string | undefined,
    private readonly standing: Standing | 'grant' | undefined,
    private readonly charged: boolean,
  ) {}

  /** Before the transaction: only an unfunded mission posted with a delegated token can be funded at once. */
  static async begin(
    db: Db,
    cfg: Config,
    client: { id: string; walletAddress: string },
    grantId: string | undefined,
    unfunded: boolean,
  ): Promise<FundingAtOnce> {
    const standing = unfunded ? await readStanding(db, cfg, grantId, client.walletAddress) : undefined;
    const charged = standing && standing !== 'grant' ? await chargeMandateRelay(getKv(), cfg, client.id) : false;
    return new FundingAtOnce(cfg, client.id, grantId, standing, charged);
  }

  /**
   * Inside the transaction, the poster's row locked: decides every cap for `reward`, and once `insert` has
   * written the mission, records the grant's use and the relay beside it. Answers what `insert` answered.
   */
  async within<T extends string>(tx: Db, reward: bigint, now: Date, insert: () => Promise<T>): Promise<T> {
    this.decision = undefined;
    const { standing, grantId } = this;
    const decided =
      standing === 'grant'
        ? ({ fund: false, reason: 'grant' } as const)
        : standing && grantId
          ? this.charged
            ? await decideFunding(tx, { grantId, clientId: this.clientId, reward, standing, now })
            : ({ fund: false, reason: 'relayer' } as const)
          : undefined;
    const missionId = await insert();
    if (decided?.fund) {
      await decided.record?.(missionId);
      await tx.insert(missionFundings).values({
        missionId,
        clientId: this.clientId,
        via: 'MANDATE',
        signature: null,
        validBefore: BigInt(Math.floor(fundByOf(now).getTime() / 1000)),
        status: 'RELAYING',
        createdAt: now,
        updatedAt: now,
      });
    }
    this.decision = decided && (decided.fund ? { fund: true } : { fund: false, reason: decided.reason });
    return missionId;
  }

  /** The transaction failed, or answered an earlier post: nothing it decided holds. */
  rolledBack(): void {
    this.decision = undefined;
  }

  private returned = false;

  /** The person's relay unit is theirs again, once, unless a relay was recorded. */
  async giveBack(): Promise<void> {
    if (!this.charged || this.decision?.fund || this.returned) return;
    this.returned = true;
    await giveBackMandateRelay(getKv(), this.cfg, this.clientId);
  }

  /**
   * After the commit (or the failure): the person's relay unit is theirs again unless a relay was recorded;
   * funded, the relay is sent now (waiting a little for it to be mined) and the answer says where it stands;
   * otherwise the funding link, with the cap that stopped it when one did.
   */
  async finish(db: Db, missionId: string, mission: () => Promise<MissionJson>, now: Date): Promise<MissionJson> {
    const { cfg, decision } = this;
    await this.giveBack();
    if (decision?.fund) {
      await processFunding(db, cfg, missionId, Math.min(cfg.chain.mintWaitMs, 5_000), now);
      return withFundingLink(cfg, await mission(), missionId, await relayStatus(db, missionId));
    }
    return withFundingLink(cfg, await mission(), missionId, decision ? { reason: decision.reason } : undefined);
  }
}

/** Where a funding at once stands after its first pass: relaying, funded, or failed (and why). */
async function relayStatus(db: Db, missionId: string) {
  const [row] = await db
    .select({ status: missionFundings.status, txHash: missionFundings.txHash, lastError: missionFundings.lastError })
    .from(missionFundings)
    .where(eq(missionFundings.missionId, missionId));
  const status = row?.status === 'MINED' ? 'funded' : row?.status === 'FAILED' ? 'failed' : 'relaying';
  return {
    status,
    ...(row?.txHash && { txHash: row.txHash }),
    ...(status === 'failed' && row?.lastError && { error: row.lastError }),
  };
}
