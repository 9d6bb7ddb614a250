// The passport object of docs/api.md#becoming-an-agent as callers see it.
import type { Config } from '../config';
import type { Passport } from '../db/schema';

export function presentPassport(cfg: Config, row: Pick<Passport, 'tokenId' | 'status' | 'txHash'>) {
  return {
    tokenId: row.tokenId,
    status: row.status,
    contract: cfg.chain.passport ?? null,
    chainId: cfg.chainId,
    txHash: row.txHash,
  };
}
