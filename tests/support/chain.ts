// This worker's anvil as tests see it: read contracts, fund wallets, act as a wallet directly.
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseEther,
  type Hex,
  type PrivateKeyAccount,
} from 'viem';
import { foundry } from 'viem/chains';
import { passportArtifact } from '@/lib/chain/artifacts';
import { workerRpcUrl } from './ports';

const transport = () => http(workerRpcUrl());

export const publicClient = () => createPublicClient({ chain: foundry, transport: transport() });

export async function fund(address: Hex, ether = '10'): Promise<void> {
  await createTestClient({ chain: foundry, mode: 'anvil', transport: transport() }).setBalance({
    address,
    value: parseEther(ether),
  });
}

export function walletOf(account: PrivateKeyAccount) {
  return createWalletClient({ chain: foundry, transport: transport(), account });
}

export async function passportBalance(passport: Hex, holder: Hex): Promise<bigint> {
  return publicClient().readContract({
    address: passport,
    abi: passportArtifact.abi,
    functionName: 'balanceOf',
    args: [holder],
  });
}

export async function passportTokenOf(passport: Hex, holder: Hex): Promise<bigint> {
  return publicClient().readContract({
    address: passport,
    abi: passportArtifact.abi,
    functionName: 'passportOf',
    args: [holder],
  });
}

/** The SDK path: the wallet mints its own passport, paying its own gas. */
export async function selfMint(passport: Hex, account: PrivateKeyAccount): Promise<bigint> {
  await fund(account.address);
  const wallet = walletOf(account);
  const hash = await wallet.writeContract({
    address: passport,
    abi: passportArtifact.abi,
    functionName: 'mint',
    args: [account.address],
  });
  await publicClient().waitForTransactionReceipt({ hash });
  return passportTokenOf(passport, account.address);
}
