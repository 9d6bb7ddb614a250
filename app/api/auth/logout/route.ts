import { clearSessionCookie } from '@/lib/auth/session-cookie';
import { revokeToken } from '@/lib/auth/tokens';
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { revokeGrant } from '@/lib/oauth/grants';
import { logoutResponse } from '@/lib/auth/schemas';

// Ends the credential the request came with: a JWT (sign-in or OAuth access token) is refused from
// now on; a personal access token is revoked like DELETE /api/tokens/{id}.
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
    else if (caller.grant) await revokeGrant(await db(), kv, cfg, caller.user.id, caller.grant.id, 'TOKEN', new Date());
    return json({ ok: true }, { headers: { 'Set-Cookie': clearSessionCookie(cfg) } });
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
