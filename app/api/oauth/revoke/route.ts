import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { preflight } from '@/lib/http/cors';
import { authenticateClient } from '@/lib/oauth/clients';
import { formBody, parseForm } from '@/lib/oauth/form';
import { revocationRequestSchema, revokeClientToken } from '@/lib/oauth/revocation';
import { protocolDocumentSchema } from '@/lib/oauth/schemas';
import { oauthErrors } from '../oauth-errors';

// RFC 7009: the client gives up a token; its grant ends on every instance.
export const POST = route(
  {
    limit: 'token',
    form: true,
    body: formBody,
    cors: true,
    doc: {
      tag: 'OAuth',
      summary: "Token revocation (RFC 7009): ends the token's grant",
      description: 'application/x-www-form-urlencoded; answers 200 for unknown tokens too.',
      response: protocolDocumentSchema,
      errors: oauthErrors(400, 401),
    },
  },
  async ({ request, body, cfg, kv, db }) => {
    const form = parseForm(revocationRequestSchema, body);
    const handle = await db();
    const client = await authenticateClient(handle, request.headers.get('authorization'), form);
    await revokeClientToken(handle, kv, cfg, client, form.token, new Date());
    return json({});
  },
);

export const OPTIONS = preflight('POST');
export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
