// The Passport contract as the backend uses it: who holds which token, and the registrar's mint.
import 'server-only';
import { encodeFunctionData, type Hex, type PublicClient } from 'viem';
import { passportArtifact } from './artifacts';

export async function passportOf(publicClient: PublicClient, contract: Hex, holder: Hex): Promise<bigint> {
  return publicClient.readContract({
    address: contract,
    abi: passportArtifact.abi,
    functionName: 'passportOf',
    args: [holder],
  });
}

/** The registrar's mint to `holder`, as a call for lib/chain/sender.ts. */
export const mintCall = (holder: Hex): Hex =>
  encodeFunctionData({ abi: passportArtifact.abi, functionName: 'mint', args: [holder] });
