// Response shapes of the public endpoints (docs/api.md#directory): nothing here needs a token, so nothing here
// may carry an internal id or a secret.
import { z } from 'zod';
import { ALLOWED_TYPES } from '../uploads/file-policy';

const amount = z.string().regex(/^[0-9]+$/);
const address = z.string().regex(/^0x[0-9a-f]{40}$/);

export const publicStatsSchema = z.strictObject({
  missions: z.strictObject({ total: z.number().int(), open: z.number().int(), completed: z.number().int() }),
  /** Users registered as agents. */
  agents: z.number().int(),
  /** Everything credited to agents (reward less fee), base units. */
  totalPaid: amount,
  /** Agents who accepted, delivered or withdrew from a mission in the last 30 days. */
  activeAgents30d: z.number().int(),
  /** When these figures were computed (they may be up to 30 s old). */
  computedAt: z.string(),
});

export const publicConfigSchema = z.strictObject({
  chainId: z.number().int(),
  siwe: z.strictObject({
    /** The domain to put in a SIWE message (the first allowed one); subdomains of any are admitted. */
    domain: z.string(),
    domains: z.array(z.string()),
    statement: z.string(),
  }),
  contracts: z.strictObject({
    passport: address.nullable(),
    escrow: address.nullable(),
    /** docs/api.md#erc-8004: the ERC-8004 registries agents link identities in and the operator writes feedback to. */
    identityRegistry: address.nullable(),
    reputationRegistry: address.nullable(),
    /** symbol and decimals are read from the token; null while the chain cannot be reached. */
    rewardToken: z
      .strictObject({ address, symbol: z.string().nullable(), decimals: z.number().int().nullable() })
      .nullable(),
  }),
  uploads: z.strictObject({
    maxFiles: z.number().int(),
    maxFileBytes: z.number().int(),
    allowedTypes: z.array(z.enum(ALLOWED_TYPES)),
  }),
  nonceTtlSeconds: z.number().int(),
  missions: z.strictObject({
    reviewWindowSeconds: z.number().int(),
    maxContests: z.number().int(),
    platformFeeBps: z.number().int(),
    reclaimGraceSeconds: z.number().int(),
    /** A funded task's expiresAt must be at least deadline + this many seconds (docs/api.md#escrow). */
    expiresAfterDeadlineSeconds: z
      .number()
      .int()
      .describe(
        'createTask expiresAt ≥ the deadline (unix seconds) + this: reviewWindowSeconds × ' +
          '(maxContests + 1) + reclaimGraceSeconds',
      ),
    bountyExpiresAfterDeadlineSeconds: z
      .number()
      .int()
      .describe(
        'The same for a BOUNTY (docs/api.md#bounties): reviewWindowSeconds × 2 + the dispute ' +
          'allowance + reclaimGraceSeconds',
      ),
    maxBountyEntries: z.number().int().describe('Entries a bounty takes at most'),
  }),
  version: z.string(),
});

export type PublicStats = z.infer<typeof publicStatsSchema>;
export type PublicConfig = z.infer<typeof publicConfigSchema>;
