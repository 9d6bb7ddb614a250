// Signature check of a SIWE message (API.md §3 step 4): ECDSA recovery for plain wallets, then
// ERC-1271 / ERC-6492 through the RPC for smart-contract wallets when recovery does not match.
import 'server-only';
import { type Hex, type PublicClient, recoverMessageAddress } from 'viem';
import { DependencyDown } from '../http/errors';
import { isRpcUnreachable } from '../chain/rpc-errors';

export async function isValidSignature(
  input: { address: `0x${string}`; message: string; signature: Hex },
  publicClient: PublicClient | undefined,
): Promise<boolean> {
  try {
    if ((await recoverMessageAddress({ message: input.message, signature: input.signature })) === input.address) return true;
  } catch {
    // Not a recoverable 65-byte signature: it may still be a contract wallet's.
  }
  if (!publicClient) return false;
  try {
    return await publicClient.verifyMessage(input);
  } catch (error) {
    // An unreachable RPC is no verdict: answer 503, never a 200 or a misleading 401.
    if (isRpcUnreachable(error)) throw new DependencyDown('chain', error);
    return false;
  }
}
