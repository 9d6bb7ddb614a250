// Wallet addresses at the edge (docs/api.md#conventions): any case in, lowercase out; a mixed-case address
// must carry a valid EIP-55 checksum.
import { getAddress } from 'viem';
import { z } from 'zod';

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export function isAcceptableAddress(value: string): boolean {
  if (!HEX_ADDRESS.test(value)) return false;
  const digits = value.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return true;
  return getAddress(value) === value;
}

export const addressSchema = z
  .string()
  .refine(isAcceptableAddress, 'must be a 0x-prefixed 20-byte address (mixed case must be a valid EIP-55 checksum)')
  .transform((value) => value.toLowerCase() as `0x${string}`);
