// What each place of a bounty pays (docs/api.md#bounties), in base units. Pure and exact: the fee is taken
// on the whole reward as the escrow's releaseSplit takes it (rounded down), the rest is shared by
// the places' weights (split percentages, or equal), each rounded down with the remainder to the
// first place — so the places plus the fee always add up to the reward, to the unit.
export interface PlaceShare {
  place: number;
  /** The place's part of the reward, fee included. */
  gross: bigint;
  fee: bigint;
  /** What the place pays out: gross less fee. */
  net: bigint;
}

const BPS = 10_000n;

function apportion(total: bigint, weights: readonly number[]): bigint[] {
  const sum = BigInt(weights.reduce((a, b) => a + b, 0));
  const parts = weights.map((w) => (total * BigInt(w)) / sum);
  parts[0]! += total - parts.reduce((a, b) => a + b, 0n);
  return parts;
}

/** Each place's share of `reward`; `split` null means equal places. */
export function placeShares(
  reward: bigint,
  feeBps: number,
  places: number,
  split: readonly number[] | null,
): { fee: bigint; places: PlaceShare[] } {
  const weights = split ?? Array.from({ length: places }, () => 1);
  const fee = (reward * BigInt(feeBps)) / BPS;
  const nets = apportion(reward - fee, weights);
  const fees = apportion(fee, weights);
  return { fee, places: nets.map((net, i) => ({ place: i + 1, gross: net + fees[i]!, fee: fees[i]!, net })) };
}

export interface Payout {
  /** Winners in place order, with what each is paid. */
  winners: { agentId: string; address: string; place: number; amount: bigint }[];
  /** Unawarded places' shares, back to the client. */
  refund: bigint;
  fee: bigint;
}

/** The award's payout: the awarded places to their winners, the rest to the client, the fee on the whole. */
export function payoutOf(
  reward: bigint,
  feeBps: number,
  places: number,
  split: readonly number[] | null,
  awarded: readonly { agentId: string; address: string; place: number }[],
): Payout {
  const shares = placeShares(reward, feeBps, places, split);
  const winners = awarded.map((w) => ({ ...w, amount: shares.places[w.place - 1]!.net }));
  const paid = winners.reduce((sum, w) => sum + w.amount, 0n);
  return { winners, refund: reward - shares.fee - paid, fee: shares.fee };
}
