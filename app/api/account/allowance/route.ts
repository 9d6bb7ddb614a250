import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import {
  allowanceInputSchema,
  allowanceQuerySchema,
  allowanceSchema,
  getAllowance,
  setAllowance,
} from '@/lib/funding/allowance';

// docs/api.md#standing-allowance: wallet sign-in only (no scope: no delegated token reads or sets it).
export const GET = route(
  {
    auth: 'user',
    limit: 'fundingRead',
    query: allowanceQuerySchema,
    doc: {
      tag: 'Account',
      summary: "The standing allowance: the mandate in force, today's use, the permit's remaining allowance",
      description:
        'Wallet sign-in only. With total, perMission, perDay and validUntil in the query, also the typed data ' +
        'to sign: a USDC EIP-2612 Permit to the escrow and an EIP-712 FundingMandate naming the relayer.',
      response: allowanceSchema,
      errors: [409],
    },
  },
  async ({ query, caller, cfg, db }) => json(await getAllowance(await db(), cfg, caller.user, query, new Date())),
);

export const POST = route(
  {
    auth: 'user',
    limit: 'write',
    body: allowanceInputSchema,
    doc: {
      tag: 'Account',
      summary: 'Set a standing allowance: the signed permit and mandate, relayed as setFundingMandateWithPermit',
      description:
        'Wallet sign-in only. Both signatures are checked (EIP-1271 for a contract wallet) against the typed data ' +
        'of these terms at the current nonces, then recorded and relayed: 202. One relay in flight per person.',
      response: allowanceSchema,
      status: 202,
      errors: [409, 429],
    },
  },
  async ({ body, caller, cfg, kv, db }) =>
    json(await setAllowance(await db(), kv, cfg, caller.user, body, new Date()), { status: 202 }),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
