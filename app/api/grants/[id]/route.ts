import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { revokeGrant } from '@/lib/oauth/grants';
import { grantIdParams } from '@/lib/oauth/schemas';
import { grantLimitSchema, setReleaseLimit } from '@/lib/confirmations';
import { setFundingLimit } from '@/lib/oauth/grant-releases';
import { idSchema } from '@/lib/fields';
import { logoutResponse } from '@/lib/auth/schemas';

// Disconnects an OAuth app: its access and refresh tokens are refused on every instance at once.
export const DELETE = route(
  {
    auth: 'user',
    limit: 'write',
    params: { id: idSchema },
    doc: {
      tag: 'Tokens',
      summary: 'Disconnect an OAuth app: its tokens are refused on every instance',
      response: logoutResponse,
      errors: [404],
    },
  },
  async ({ params, caller, cfg, kv, db }) => {
    const { id } = grantIdParams(params);
    await revokeGrant(await db(), kv, cfg, caller.user.id, id, 'OAUTH', new Date());
    return json({ ok: true });
  },
);

// The person sets what an app or a personal token may release without asking (docs/api.md#confirmations).
export const PATCH = route(
  {
    auth: 'user',
    limit: 'write',
    body: grantLimitSchema,
    params: { id: idSchema },
    doc: {
      tag: 'Tokens',
      summary: "Change a grant's or personal token's release or funding limit (base units over a rolling 24 h)",
      description:
        'Wallet sign-in only. Beyond the limit a delegated release waits for the person (202 and a confirmation).',
      response: logoutResponse,
      errors: [404],
    },
  },
  async ({ params, body, caller, db }) => {
    const { id } = grantIdParams(params);
    if (body.releaseLimit !== undefined) await setReleaseLimit(await db(), caller.user.id, id, body.releaseLimit);
    // docs/api.md#standing-allowance: what it may fund at once from the person's standing allowance.
    if (body.fundingLimit !== undefined) await setFundingLimit(await db(), caller.user.id, id, body.fundingLimit);
    return json({ ok: true });
  },
);

export const { GET, POST, PUT } = otherMethods('DELETE', 'PATCH');
