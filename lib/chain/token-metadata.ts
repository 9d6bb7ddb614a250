// An ERC-20's symbol and decimals, read from the chain once per token and kept for the life of
// the process (they never change). A failed read is not kept: the next caller tries again.
import 'server-only';
import { erc20Abi } from 'viem';
import type { Config } from '../config';
import { log } from '../log';
import { getChainClients } from './clients';

export interface TokenMetadata {
  symbol: string | null;
  decimals: number | null;
}

const known = new Map<string, TokenMetadata>();

export async function tokenMetadata(address: `0x${string}`): Promise<TokenMetadata> {
  const clients = getChainClients();
  if (!clients) return { symbol: null, decimals: null };
  const key = `${clients.key}|${address}`;
  const cached = known.get(key);
  if (cached) return cached;
  try {
    const [symbol, decimals] = await Promise.all([
      clients.publicClient.readContract({ address, abi: erc20Abi, functionName: 'symbol' }),
      clients.publicClient.readContract({ address, abi: erc20Abi, functionName: 'decimals' }),
    ]);
    const metadata = { symbol, decimals };
    known.set(key, metadata);
    return metadata;
  } catch (error) {
    log.warn('token.metadata_unavailable', { address, message: (error as Error).message?.split('\n')[0] });
    return { symbol: null, decimals: null };
  }
}

/**
 * The decimals amounts of the reward token are read with: the token's own, from the chain; null while
 * the configured token cannot be read (a caller refuses rather than guess). With no token configured
 * (bookkeeping without one), USDC's 6, as the dashboard shows amounts then.
 */
export async function rewardTokenDecimals(cfg: Config): Promise<number | null> {
  const address = cfg.chain.rewardToken;
  return address ? (await tokenMetadata(address)).decimals : 6;
}
