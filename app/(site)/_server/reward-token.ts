// The reward token's symbol and decimals for server-rendered amounts (USDC's when unreadable).
import 'server-only';
import type { Config } from '@/lib/config';
import { tokenMetadata } from '@/lib/chain/token-metadata';
import { DEFAULT_TOKEN, type TokenInfo } from '@/lib/web/money';

export async function rewardTokenOf(cfg: Config): Promise<TokenInfo> {
  const address = cfg.chain.rewardToken;
  const meta = address ? await tokenMetadata(address) : undefined;
  return { symbol: meta?.symbol ?? DEFAULT_TOKEN.symbol, decimals: meta?.decimals ?? DEFAULT_TOKEN.decimals };
}
