import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { revokeGrant } from '@/lib/oauth/grants';
import { grantIdParams } from '@/lib/oauth/schemas';
import { idSchema } from '@/lib/fields';
import { logoutResponse } from '@/lib/auth/schemas';

// Disconnects an OAuth app: its access and refresh tokens are refused on every instance at once.
export const DELETE = route({
  auth: 'user', limit: 'write',
  doc: {
    tag: 'Tokens', summary: "Disconnect an OAuth app: its tokens are refused on every instance", params: { id: idSchema },
    response: logoutResponse, errors: [404],
  },
}, async ({ params, caller, cfg, kv, db }) => {
  const { id } = grantIdParams(params);
  await revokeGrant(await db(), kv, cfg, caller.user.id, id, 'OAUTH', new Date());
  return json({ ok: true });
});

export const { GET, POST, PUT, PATCH } = otherMethods('DELETE');
