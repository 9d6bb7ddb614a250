// The chain the dashboard talks to, as viem describes it: a known chain when the id is one (so a
// wallet asked to add it gets real RPC and explorer details), a bare definition otherwise.
import { defineChain, type Chain } from 'viem';
import { base, baseSepolia, foundry, mainnet, sepolia } from 'viem/chains';

const KNOWN: readonly Chain[] = [base, baseSepolia, foundry, mainnet, sepolia];

export function chainFor(id: number): Chain {
  return (
    KNOWN.find((chain) => chain.id === id) ??
    defineChain({
      id,
      name: `Chain ${id}`,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [] } },
    })
  );
}

export function chainName(id: number): string {
  return KNOWN.find((chain) => chain.id === id)?.name ?? `chain ${id}`;
}

/** A block-explorer link for a transaction, when the chain has an explorer. */
export function transactionUrl(chainId: number, hash: string): string | undefined {
  const explorer = KNOWN.find((chain) => chain.id === chainId)?.blockExplorers?.default.url;
  return explorer ? `${explorer}/tx/${hash}` : undefined;
}
