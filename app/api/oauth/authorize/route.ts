import { route } from '@/lib/http/route';
import { rewardTokenDecimals } from '@/lib/chain/token-metadata';
import { documentRequester } from '@/lib/http/document-requester';
import { otherMethods } from '@/lib/http/methods';
import { decideAuthorization } from '@/lib/oauth/consent';
import { formBody } from '@/lib/oauth/form';
import { issuerOf } from '@/lib/oauth/metadata';
import { protocolDocumentSchema } from '@/lib/oauth/schemas';

// The consent form's POST (the page is app/(site)/oauth/authorize): a wallet sign-in's session
// cookie (its Origin checked by the auth guard), the one-time form token, then a 303 to the client.
export const POST = route(
  {
    auth: 'user',
    scope: 'session',
    limit: 'write',
    form: true,
    body: formBody,
    doc: {
      tag: 'OAuth',
      summary: "The consent form's decision (from the /oauth/authorize page) → 303 to the client",
      description:
        'application/x-www-form-urlencoded, a wallet sign-in session cookie from an allowed ' +
        'Origin, and the one-time form_token the page issued for these exact terms; with ' +
        'decision=approve, the scopes the person checked as repeated `scope` fields (at least ' +
        'one, each one offered; else 400). 409 when the client name is no longer the one the page ' +
        'showed (a changed metadata document).',
      response: protocolDocumentSchema,
      status: 303,
      errors: [403, 409],
    },
  },
  async ({ body, caller, cfg, kv, db, ip }) => {
    const requester = documentRequester(cfg, kv, ip);
    const decimals = () => rewardTokenDecimals(cfg);
    const location = await decideAuthorization(
      await db(),
      kv,
      issuerOf(cfg),
      caller.user.id,
      body,
      requester,
      decimals,
    );
    return new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
