import { clearSessionCookie } from '@/lib/auth/session-cookie';
import { revokeToken } from '@/lib/auth/tokens';
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';

export const POST = route({ auth: 'user', limit: 'write', session: true }, async ({ caller, kv, cfg }) => {
  await revokeToken(kv, caller.claims);
  return json({ ok: true }, { headers: { 'Set-Cookie': clearSessionCookie(cfg) } });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
