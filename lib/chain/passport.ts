// The Passport contract as the backend uses it: who holds which token, and the registrar's mint.
import 'server-only';
import type { Hex, PublicClient, WalletClient } from 'viem';
import { passportArtifact } from './artifacts';

export async function passportOf(publicClient: PublicClient, contract: Hex, holder: Hex): Promise<bigint> {
  return publicClient.readContract({ address: contract, abi: passportArtifact.abi, functionName: 'passportOf', args: [holder] });
}

/** Sends the registrar's mint; gas estimation runs the call first, so a certain revert costs nothing. */
export async function sendMint(walletClient: WalletClient, contract: Hex, holder: Hex): Promise<Hex> {
  return walletClient.writeContract({
    address: contract,
    abi: passportArtifact.abi,
    functionName: 'mint',
    args: [holder],
    account: walletClient.account!,
    chain: walletClient.chain,
  });
}
