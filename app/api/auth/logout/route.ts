import { clearSessionCookie } from '@/lib/auth/session-cookie';
import { revokeToken } from '@/lib/auth/tokens';
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { revokeGrant } from '@/lib/oauth/grants';
import { logoutResponse } from '@/lib/auth/schemas';

// Ends the credential the request came with: a sign-in's JWT is refused from now on; a token tied to a
// grant (an OAuth access token, a personal access token, or one register-agent derived from either)
// ends its grant, as RFC 7009 revocation does — recorded in the database, so a flushed KV brings
// nothing back (docs/api.md#grant-bound-tokens).
export const POST = route(
  {
    auth: 'user',
    scope: 'any',
    limit: 'write',
    session: true,
    doc: { tag: 'Auth', summary: 'Revoke the token and clear the cookie', response: logoutResponse },
  },
  async ({ caller, kv, cfg, db }) => {
    if (caller.claims) await revokeToken(kv, caller.claims);
    if (caller.grant) await revokeGrant(await db(), kv, cfg, caller.user.id, caller.grant.id, undefined, new Date());
    return json({ ok: true }, { headers: { 'Set-Cookie': clearSessionCookie(cfg) } });
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
