import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { revokeGrant } from '@/lib/oauth/grants';
import { grantIdParams } from '@/lib/oauth/schemas';
import { idSchema } from '@/lib/fields';
import { logoutResponse } from '@/lib/auth/schemas';

// Revokes one of the caller's personal access tokens, on every instance at once.
export const DELETE = route(
  {
    auth: 'user',
    limit: 'write',
    params: { id: idSchema },
    doc: {
      tag: 'Tokens',
      summary: 'Revoke a personal access token on every instance',
      response: logoutResponse,
      errors: [404],
    },
  },
  async ({ params, caller, cfg, kv, db }) => {
    const { id } = grantIdParams(params);
    await revokeGrant(await db(), kv, cfg, caller.user.id, id, 'TOKEN', new Date());
    return json({ ok: true });
  },
);

export const { GET, POST, PUT, PATCH } = otherMethods('DELETE');
