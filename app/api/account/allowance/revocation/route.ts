import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { getRevocation, revocationInputSchema, revocationSchema, revokeAllowance } from '@/lib/funding/allowance';

// docs/api.md#standing-allowance: the revocation's typed data, and its signature relayed
// (revokeFundingMandateBySig). The wallet may also call revokeFundingMandate() itself.
export const GET = route(
  {
    auth: 'user',
    limit: 'fundingRead',
    doc: {
      tag: 'Account',
      summary: 'The typed data of a FundingMandateRevocation to sign',
      description: 'Wallet sign-in only.',
      response: revocationSchema,
      errors: [409],
    },
  },
  async ({ caller, cfg, db }) => json(await getRevocation(await db(), cfg, caller.user)),
);

export const POST = route(
  {
    auth: 'user',
    limit: 'write',
    body: revocationInputSchema,
    doc: {
      tag: 'Account',
      summary: 'Revoke the standing allowance: the signed revocation, relayed as revokeFundingMandateBySig',
      description: 'Wallet sign-in only. 202: recorded and relayed; the mandate stops at once for new posts.',
      response: revocationSchema,
      status: 202,
      errors: [409, 429],
    },
  },
  async ({ body, caller, cfg, kv, db }) =>
    json(await revokeAllowance(await db(), kv, cfg, caller.user, body, new Date()), { status: 202 }),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
