// The OAuth endpoints' failures as the OpenAPI document lists them: RFC 6749 §5.2 bodies, which OAuth
// clients parse, in place of the shared `{ error, details? }` (docs/api.md#oauth-21).
import type { CustomError } from '@/lib/http/operation-doc';
import { oauthErrorSchema } from '@/lib/oauth/schemas';

const DESCRIPTIONS: Record<number, string> = {
  400:
    'invalid_request, invalid_grant, invalid_scope, invalid_target, unsupported_grant_type, ' +
    'invalid_redirect_uri or invalid_client_metadata',
  401: 'invalid_client: the client could not be authenticated',
};

export const oauthErrors = (...statuses: (400 | 401)[]): CustomError[] =>
  statuses.map((status) => ({ status, description: DESCRIPTIONS[status]!, schema: oauthErrorSchema }));
