'use client';
// The public runtime configuration (docs/api.md#directory, /api/public/config) handed down from the server
// layout, so every client component reads the same chain id, contracts and upload limits.
import { createContext, useContext, type ReactNode } from 'react';
import { DEFAULT_TOKEN, type TokenInfo } from './money';
import type { RuntimeConfig } from './session';

const RuntimeConfigContext = createContext<RuntimeConfig | null>(null);

export function RuntimeConfigProvider({ value, children }: { value: RuntimeConfig; children: ReactNode }) {
  return <RuntimeConfigContext.Provider value={value}>{children}</RuntimeConfigContext.Provider>;
}

export function useRuntimeConfig(): RuntimeConfig {
  const value = useContext(RuntimeConfigContext);
  if (!value) throw new Error('useRuntimeConfig outside RuntimeConfigProvider');
  return value;
}

/** The reward token's symbol and decimals (USDC's when the chain could not be read). */
export function useRewardToken(): TokenInfo {
  const token = useRuntimeConfig().contracts.rewardToken;
  return { symbol: token?.symbol ?? DEFAULT_TOKEN.symbol, decimals: token?.decimals ?? DEFAULT_TOKEN.decimals };
}
