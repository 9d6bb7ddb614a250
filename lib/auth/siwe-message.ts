// Strict EIP-4361 parsing: the message must match the ABNF grammar exactly (the SIWE reference
// parser), and is bounded in size before any parsing work is done. Canonical messages take a fast
// path whose language is a subset of the reference's; every other message, and so every refusal,
// is the reference's.
import { ParsedMessage } from '@spruceid/siwe-parser';
import { ApiError } from '../errors';
import { matchCanonicalSiwe, type SiweParts } from './siwe-canonical';

/** Far above a real message (~400 bytes plus resources), small enough to bound the parser's work. */
export const MAX_MESSAGE_LENGTH = 4096;

export interface SiweFields {
  domain: string;
  address: `0x${string}`;
  uri: string;
  version: string;
  chainId: number;
  nonce: string;
  issuedAt: Date;
  expirationTime?: Date;
  notBefore?: Date;
}

const date = (value: string | undefined, field: string): Date | undefined => {
  if (value === undefined) return undefined;
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime())) throw new ApiError(400, 'Malformed SIWE message', [`${field}: not a valid date`]);
  return parsed;
};

export function parseSiweMessage(message: string): SiweFields {
  if (message.length > MAX_MESSAGE_LENGTH) throw new ApiError(400, 'Malformed SIWE message', ['message: too long']);
  const parsed = matchCanonicalSiwe(message) ?? parseWithReference(message);
  return {
    domain: parsed.domain,
    address: parsed.address as `0x${string}`,
    uri: parsed.uri,
    version: parsed.version,
    chainId: parsed.chainId,
    nonce: parsed.nonce,
    issuedAt: date(parsed.issuedAt, 'issuedAt')!,
    expirationTime: date(parsed.expirationTime, 'expirationTime'),
    notBefore: date(parsed.notBefore, 'notBefore'),
  };
}

function parseWithReference(message: string): SiweParts {
  try {
    return new ParsedMessage(message);
  } catch (error) {
    // The parser's first line names the offending line ("line 2: invalid EIP-55 address - …").
    const reason = String((error as Error).message ?? '')
      .split('\n')[0]!
      .slice(0, 200);
    throw new ApiError(400, 'Malformed SIWE message', reason ? [reason] : undefined);
  }
}
