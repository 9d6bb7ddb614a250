// Signature check of a SIWE message (docs/api.md#sign-in): ECDSA recovery for plain wallets, then
// ERC-1271 / ERC-6492 through the RPC for smart-contract wallets when recovery does not match.
// The recovery itself lives in recover-address.ts.
import 'server-only';
import {
  encodeDeployData,
  erc6492SignatureValidatorAbi,
  erc6492SignatureValidatorByteCode,
  hashMessage,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { call } from 'viem/actions';
import { DependencyDown } from '../errors';
import { isExecutionRevert } from '../chain/rpc-errors';
import { recoverSigner } from './recover-address';

export async function isValidSignature(
  input: { address: Address; message: string; signature: Hex },
  publicClient: PublicClient | undefined,
): Promise<boolean> {
  // EIP-191: what wallets sign for personal_sign, and what ERC-1271 wallets are asked about.
  const hash = hashMessage(input.message);
  // Recovery first keeps the RPC out of every plain sign-in. ERC-6492 puts ecrecover last, for
  // addresses without code; for an address with code, a matching recovery proves control of the
  // address's own key (an EIP-7702 account), which outranks any code it delegates to.
  if ((await recoverSigner(hash, input.signature)) === input.address) return true;
  if (!publicClient) return false;
  return isValidContractSignature(publicClient, { address: input.address, hash, signature: input.signature });
}

/**
 * ERC-6492's verification, in its order: a signature ending in the 6492 suffix first runs the
 * wallet's factory call, then asks the wallet (ERC-1271) with the inner signature; a deployed
 * wallet is asked directly (and again after the factory call if it says no); an address without
 * code falls back to ecrecover. The reference validator does exactly that and compares the
 * wallet's answer with the magic value 0x1626ba7e as a whole bytes4 — a prefix does not count.
 * viem ships it as creation code: one eth_call runs it, deploying nothing.
 */
async function isValidContractSignature(
  publicClient: PublicClient,
  input: { address: Address; hash: Hex; signature: Hex },
): Promise<boolean> {
  let answer: Hex | undefined;
  try {
    const result = await call(
      // No CCIP-Read: a wallet's revert must not make the server fetch URLs of the wallet's choosing.
      { ...publicClient, ccipRead: false },
      {
        data: encodeDeployData({
          abi: erc6492SignatureValidatorAbi,
          bytecode: erc6492SignatureValidatorByteCode,
          args: [input.address, input.hash, input.signature],
        }),
      },
    );
    answer = result.data;
  } catch (error) {
    // The validator reverts on a malformed signature, a failed factory call, or a wallet answer
    // that is not a clean bytes4: an executed call that said no, so no valid signature.
    if (isExecutionRevert(error)) return false;
    // viem's own verifyMessage reads every failed call as "invalid". An unreachable RPC, or a node
    // that answered with a JSON-RPC error (rate limit, internal error, timeout), gave no verdict
    // at all (docs/api.md#sign-in): 503, never a 200 and never a misleading 401.
    throw new DependencyDown('chain', error);
  }
  // The validator answers one byte: 0x01 valid, 0x00 not.
  return answer === '0x01';
}
