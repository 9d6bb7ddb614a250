// Sign-In with Ethereum (docs/api.md#sign-in, verify): strict parse, nonce taken out before anything else
// is checked, then chain, domain, time window and signature, then the user and their token.
import 'server-only';
import type { Hex } from 'viem';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { ApiError } from '../errors';
import type { CountedCharge, Kv } from '../kv';
import { getChainClients } from '../chain/clients';
import { upsertUserByAddress, type UserSummary } from '../users/queries';
import { isAllowedDomain } from './domain';
import { takeNonce } from './nonces';
import { isValidSignature } from './signature';
import { parseSiweMessage } from './siwe-message';
import { issueToken } from './tokens';

const FUTURE_ISSUE_TOLERANCE_MS = 5 * 60_000;

const refuse = (message: string) => new ApiError(401, message);

export async function verifySignIn(
  deps: { cfg: Config; kv: Kv; db: () => Promise<Db>; charge?: CountedCharge },
  input: { message: string; signature: Hex },
  now = new Date(),
): Promise<{ token: string; user: UserSummary }> {
  const { cfg, kv } = deps;
  const fields = parseSiweMessage(input.message);

  // Step 2: the nonce leaves the store before any check, so a failed or racing attempt burns it.
  const boundAddress = await takeNonce(kv, fields.nonce, deps.charge);
  if (boundAddress === null) throw refuse('Nonce expired or unknown');
  const address = fields.address.toLowerCase();
  if (boundAddress !== address) throw refuse('Nonce was issued to another address');

  if (fields.chainId !== cfg.chainId) throw refuse('Chain ID mismatch');
  if (!isAllowedDomain(fields.domain, cfg.siweDomains)) throw refuse('Domain not allowed');
  if (fields.expirationTime && fields.expirationTime.getTime() <= now.getTime()) throw refuse('Message expired');
  if (fields.notBefore && fields.notBefore.getTime() > now.getTime()) throw refuse('Message not yet valid');
  if (fields.issuedAt.getTime() > now.getTime() + FUTURE_ISSUE_TOLERANCE_MS)
    throw refuse('Message issued in the future');

  // The check runs on the checksum form of the address (docs/api.md#conventions): the message's own,
  // which the parser admits only in its EIP-55 form, so it is not derived again (a keccak).
  const valid = await isValidSignature(
    { address: fields.address, message: input.message, signature: input.signature },
    getChainClients()?.publicClient,
  );
  if (!valid) throw refuse('Invalid signature');

  const user = await upsertUserByAddress(await deps.db(), address);
  return { token: await issueToken(cfg, user, now), user };
}
