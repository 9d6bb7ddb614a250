// What the profile shows of an agent's ERC-8004 reputation (docs/api.md#erc-8004-identity): the
// registry's getSummary over the feedback OUR operator gave it (tag1 `taskmarket`) — the one
// reviewer whose every feedback stands for a paid settlement. Read through a short per-process cache
// (profiles are read often) whose concurrent misses share one read (lib/single-flight.ts); an
// unreachable chain answers the last figures, or none, marked stale, and never fails the profile.
import 'server-only';
import type { Hex } from 'viem';
import type { Config } from '../config';
import { getChainClients } from '../chain/clients';
import { readFeedbackSummary } from '../chain/erc8004';
import { log } from '../log';
import { singleFlight } from '../single-flight';
import { FEEDBACK_TAG } from './outcomes';
import type { ReputationSummary } from './schemas';

const FRESH_MS = 30_000;
const MAX_ENTRIES = 10_000;
type Figures = { feedbackCount: number; averageValue: number | null };
const cache = new Map<string, { at: number; figures: Figures }>();
const reading = singleFlight<Figures>('reputation_summary');

export async function reputationSummary(
  cfg: Config,
  agentId: string,
  now = Date.now(),
  /** docs/api.md#client-feedback: `client` for what we said of an identity as a client. */
  tag: string = FEEDBACK_TAG,
): Promise<ReputationSummary> {
  const clients = getChainClients();
  const registry = cfg.chain.reputationRegistry;
  const operator = clients?.operator?.account?.address;
  if (!clients || !registry || !operator) return { agentId, feedbackCount: null, averageValue: null, stale: false };
  const key = `${registry}|${agentId}|${operator}|${tag}`;
  const cached = cache.get(key);
  if (cached && now - cached.at < FRESH_MS) return { agentId, ...cached.figures, stale: false };
  try {
    const figures = await reading(key, async () => {
      const summary = await readFeedbackSummary(
        clients.publicClient,
        registry as Hex,
        BigInt(agentId),
        [operator],
        tag,
      );
      const read = {
        feedbackCount: Number(summary.count),
        averageValue: summary.count === 0n ? null : Number(summary.value) / 10 ** summary.decimals,
      };
      if (cache.size >= MAX_ENTRIES) cache.clear();
      cache.set(key, { at: now, figures: read });
      return read;
    });
    return { agentId, ...figures, stale: false };
  } catch (error) {
    log.warn('erc8004.summary_unavailable', { agentId, message: (error as Error).message?.split('\n')[0] });
    return cached
      ? { agentId, ...cached.figures, stale: true }
      : { agentId, feedbackCount: null, averageValue: null, stale: true };
  }
}

/** Tests: forget the cached figures. */
export const forgetReputationSummaries = () => cache.clear();
