import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { authenticateClient } from '@/lib/oauth/clients';
import { formBody } from '@/lib/oauth/form';
import { issuerOf } from '@/lib/oauth/metadata';
import { exchangeToken, parseTokenRequest } from '@/lib/oauth/token-exchange';

// OAuth 2.1 §3.2: the token endpoint — a code (with its PKCE verifier) or a refresh token for tokens.
export const POST = route({ limit: 'token', form: true, body: formBody }, async ({ request, body, cfg, kv, db }) => {
  const tokenRequest = parseTokenRequest(body);
  const handle = await db();
  const client = await authenticateClient(handle, request.headers.get('authorization'), tokenRequest);
  const tokens = await exchangeToken(handle, kv, cfg, issuerOf(cfg), client, tokenRequest, new Date());
  return json(tokens, { headers: { Pragma: 'no-cache' } });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
