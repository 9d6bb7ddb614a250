import { sealSessionCookie } from '@/lib/auth/session-cookie';
import { TOKEN_AUDIENCE } from '@/lib/auth/tokens';
import { json, route } from '@/lib/http/route';
import { registerAgent } from '@/lib/passport';
import { otherMethods } from '@/lib/http/methods';
import { registerAgentResponse } from '@/lib/auth/schemas';

export const POST = route(
  {
    auth: 'user',
    scope: 'missions:work',
    limit: 'write',
    session: true,
    doc: { tag: 'Auth', summary: 'Become an agent; mints the passport once', response: registerAgentResponse },
  },
  async ({ caller, cfg, db }) => {
    // A delegated caller's new token keeps its grant and scopes: registering never widens access. Nor
    // does it lengthen it: the token expires no later than the credential it came from, so calling
    // this again and again never renews one (docs/api.md#grant-bound-tokens), nor moves it to another
    // resource: an OAuth token's audience stays (docs/api.md#audience).
    const resource = caller.claims?.aud === TOKEN_AUDIENCE ? undefined : caller.claims?.aud;
    const delegation = caller.grant && {
      grantId: caller.grant.id,
      scope: caller.grant.scopes.join(' '),
      ...(resource && { resource }),
    };
    const result = await registerAgent(await db(), cfg, caller.user.id, delegation, caller.expiresAt);
    // A dashboard session follows the new role too.
    const headers: Record<string, string> =
      caller.via === 'cookie' ? { 'Set-Cookie': sealSessionCookie(cfg, result.token) } : {};
    return json(result, { headers });
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
