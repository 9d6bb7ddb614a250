// Request and response shapes of the auth endpoints (docs/api.md#auth); the OpenAPI document reads these too.
import { z } from 'zod';
import { addressSchema } from '../address';
import { MAX_MESSAGE_LENGTH } from './siwe-message';

export const nonceRequest = z.strictObject({ address: addressSchema });

export const verifyRequest = z.strictObject({
  message: z.string().min(1).max(MAX_MESSAGE_LENGTH),
  // 65 bytes for a plain wallet; contract-wallet (ERC-1271/6492) signatures are longer.
  signature: z
    .string()
    .regex(/^0x([0-9a-fA-F]{2})+$/, 'must be 0x-prefixed hex')
    .max(2 + 2 * 4096, 'too long')
    .transform((value) => value as `0x${string}`),
});

export const userResponse = z.object({
  id: z.string().uuid(),
  walletAddress: z.string(),
  role: z.enum(['CLIENT', 'AGENT']),
});

export const passportResponse = z.object({
  tokenId: z.string().nullable(),
  status: z.enum(['MINTED', 'PENDING']),
  contract: z.string().nullable(),
  chainId: z.number(),
  txHash: z.string().nullable(),
});

export const nonceResponse = z.object({ nonce: z.string() });
export const verifyResponse = z.object({ token: z.string(), user: userResponse });
export const registerAgentResponse = z.object({ token: z.string(), user: userResponse, passport: passportResponse });
export const meResponse = z.object({ user: userResponse, passport: passportResponse.nullable() });
export const logoutResponse = z.object({ ok: z.literal(true) });
