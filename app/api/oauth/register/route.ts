import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { preflight } from '@/lib/http/cors';
import { registerClient } from '@/lib/oauth/clients';
import { protocolDocumentSchema, registrationBody } from '@/lib/oauth/schemas';
import { oauthErrors } from '../oauth-errors';

// RFC 7591 dynamic client registration: anonymous, so limited per source (IPv6 by /48) and, across all
// sources, by a ceiling on unused registrations (docs/api.md#oauth-21); the metadata is checked by
// registerClient (its refusals are OAuth errors, as registration clients expect).
export const POST = route(
  {
    limit: 'register',
    body: registrationBody,
    cors: true,
    doc: {
      tag: 'OAuth',
      summary: 'Dynamic client registration (RFC 7591)',
      description:
        'Redirect URIs: https, http only for loopback, or a private-use scheme; matched ' +
        'exactly. Errors are `{ error: invalid_redirect_uri | invalid_client_metadata, ' +
        'error_description }`. Unused registrations are deleted after 30 days.',
      response: protocolDocumentSchema,
      status: 201,
      errors: oauthErrors(400),
    },
  },
  async ({ body, cfg, db }) =>
    json(await registerClient(await db(), body, new Date(), cfg.limits.registrationsGlobalPerHour), { status: 201 }),
);

export const OPTIONS = preflight('POST');
export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
