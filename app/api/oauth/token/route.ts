import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { preflight } from '@/lib/http/cors';
import { authenticateClient } from '@/lib/oauth/clients';
import { formBody } from '@/lib/oauth/form';
import { issuerOf } from '@/lib/oauth/metadata';
import { exchangeToken, parseTokenRequest } from '@/lib/oauth/token-exchange';
import { protocolDocumentSchema } from '@/lib/oauth/schemas';
import { oauthErrors } from '../oauth-errors';

// OAuth 2.1 §3.2: the token endpoint — a code (with its PKCE verifier) or a refresh token for tokens.
export const POST = route(
  {
    limit: 'token',
    form: true,
    body: formBody,
    cors: true,
    doc: {
      tag: 'OAuth',
      summary: 'Tokens for an authorization code (PKCE S256) or a refresh token (rotated)',
      description:
        'application/x-www-form-urlencoded (RFC 6749). Codes are single-use and live 60 s; a ' +
        'refresh token is used once, and a used one presented again revokes the grant. Errors ' +
        'are `{ error, error_description }` (invalid_grant, invalid_client, invalid_request, ' +
        'unsupported_grant_type, invalid_scope, invalid_target).',
      response: protocolDocumentSchema,
      errors: oauthErrors(400, 401),
    },
  },
  async ({ request, body, cfg, kv, db }) => {
    const tokenRequest = parseTokenRequest(body);
    const handle = await db();
    const client = await authenticateClient(handle, request.headers.get('authorization'), tokenRequest);
    const tokens = await exchangeToken(handle, kv, cfg, issuerOf(cfg), client, tokenRequest, new Date());
    return json(tokens, { headers: { Pragma: 'no-cache' } });
  },
);

export const OPTIONS = preflight('POST');
export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
