import { sealSessionCookie } from '@/lib/auth/session-cookie';
import { json, route } from '@/lib/http/route';
import { registerAgent } from '@/lib/passport';
import { otherMethods } from '@/lib/http/methods';

export const POST = route({ auth: 'user', limit: 'write', session: true }, async ({ caller, cfg, db }) => {
  const result = await registerAgent(await db(), cfg, caller.user.id);
  // A dashboard session follows the new role too.
  const headers: Record<string, string> =
    caller.via === 'cookie' ? { 'Set-Cookie': sealSessionCookie(cfg, result.token) } : {};
  return json(result, { headers });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
