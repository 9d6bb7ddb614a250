import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { createPersonalToken, listGrants } from '@/lib/oauth/grants';
import { createdTokenSchema, createTokenSchema, grantListSchema } from '@/lib/oauth/schemas';

// Personal access tokens for headless agents: made and listed by a wallet sign-in only (a token
// that could mint tokens would outlive its own revocation).
export const POST = route(
  {
    auth: 'user',
    limit: 'write',
    body: createTokenSchema,
    doc: {
      tag: 'Tokens',
      summary: 'Create a personal access token (tm_…), shown once; at most 20',
      description:
        'Wallet sign-in only (a delegated token cannot make tokens). Use it as Authorization: ' +
        'Bearer anywhere; it is refused (403) outside its scopes.',
      response: createdTokenSchema,
      status: 201,
      errors: [409],
    },
  },
  async ({ body, caller, db }) =>
    json(await createPersonalToken(await db(), caller.user.id, body, new Date()), { status: 201 }),
);

export const GET = route(
  {
    auth: 'user',
    doc: {
      tag: 'Tokens',
      summary: "The caller's personal access tokens (never the tokens themselves)",
      response: grantListSchema,
    },
  },
  async ({ caller, db }) => json({ items: await listGrants(await db(), caller.user.id, 'TOKEN', new Date()) }),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
