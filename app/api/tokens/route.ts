import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { createPersonalToken, listGrants } from '@/lib/oauth/grants';
import { createTokenSchema } from '@/lib/oauth/schemas';

// Personal access tokens for headless agents: made and listed by a wallet sign-in only (a token
// that could mint tokens would outlive its own revocation).
export const POST = route({ auth: 'user', limit: 'write', body: createTokenSchema }, async ({ body, caller, db }) =>
  json(await createPersonalToken(await db(), caller.user.id, body, new Date()), { status: 201 }),
);

export const GET = route({ auth: 'user' }, async ({ caller, db }) => json({ items: await listGrants(await db(), caller.user.id, 'TOKEN', new Date()) }));

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
