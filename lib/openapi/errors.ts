// The failure side of every operation (docs/api.md#errors): which statuses an endpoint can answer, derived
// from its access, limits and schemas, each a shared response in the `{ error, details? }` shape;
// and the security schemes the access levels map to.
import { SESSION_COOKIE } from '../auth/session-cookie';
import type { Access, Operation } from './types';

const ERRORS: Record<number, { name: string; description: string; retryAfter?: boolean }> = {
  400: {
    name: 'BadRequest',
    description:
      'Malformed JSON or failed validation (`details` lists each problem by field), or a token sent as ?access_token=',
  },
  401: { name: 'Unauthorized', description: 'Missing, malformed, expired or revoked credentials' },
  403: {
    name: 'Forbidden',
    description: 'Signed in but not allowed: wrong role or party, or a cross-site cookie request',
  },
  404: { name: 'NotFound', description: 'Unknown resource (malformed ids included)' },
  405: { name: 'MethodNotAllowed', description: 'The method is not served here; `Allow` lists those that are' },
  409: { name: 'Conflict', description: 'Not allowed from the current state, or a concurrent request won' },
  413: { name: 'PayloadTooLarge', description: 'A file over 10 MB or a body over the limit' },
  415: {
    name: 'UnsupportedMediaType',
    description: 'A file type outside the allow-list, or contradicting its declaration',
  },
  422: { name: 'UnprocessableContent', description: 'An Idempotency-Key already used for a different request' },
  429: { name: 'TooManyRequests', description: 'Rate limit hit', retryAfter: true },
  500: { name: 'InternalError', description: '`{ "error": "Internal error" }`: a bug; nothing internal is revealed' },
  503: { name: 'Unavailable', description: 'A dependency (database, KV) is unreachable', retryAfter: true },
};

const SIGNED_IN: Access[] = ['user', 'CLIENT', 'AGENT'];
// An operator secret that is unset is 404; repeated wrong ones lock the kind out (429).
const OPERATOR: Access[] = ['cron', 'admin', 'metrics'];

/** The statuses an operation can answer besides success, as references to the shared responses. */
export function operationErrors(route: Operation): Record<string, { $ref: string }> {
  const { access } = route;
  const statuses = new Set<number>([500]);
  if (!route.static) statuses.add(503);
  // A token in the query string is refused on every route (docs/api.md#tokens), whatever else it reads.
  statuses.add(400);
  // What the wrapper answers before the handler runs (lib/http/route.ts), implied by the options.
  if (route.body) statuses.add(413).add(415);
  if (access !== 'public') statuses.add(401);
  if (access === 'CLIENT' || access === 'AGENT' || (SIGNED_IN.includes(access) && route.method !== 'get'))
    statuses.add(403);
  if (route.scoped || route.originChecked) statuses.add(403);
  if (OPERATOR.includes(access)) statuses.add(404).add(429);
  if (route.limited) statuses.add(429);
  for (const error of route.errors ?? []) if (typeof error === 'number') statuses.add(error);
  // A custom body for a status replaces the shared one.
  for (const error of route.errors ?? []) if (typeof error !== 'number') statuses.delete(error.status);
  return Object.fromEntries(
    [...statuses]
      .sort((a, b) => a - b)
      .map((status) => [String(status), { $ref: `#/components/responses/${ERRORS[status]!.name}` }]),
  );
}

export function errorResponses() {
  const retryAfter = { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } };
  return Object.fromEntries(
    Object.values(ERRORS).map(({ name, description, retryAfter: retry }) => [
      name,
      {
        description,
        ...(retry && { headers: retryAfter }),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );
}

export const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The token from POST /api/auth/verify, an OAuth access token, or a personal access ' +
      'token (tm_…); a delegated token is refused (403) outside its scopes',
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The dashboard session; state-changing requests also need an allowed Origin',
  },
  cronSecret: { type: 'http', scheme: 'bearer', description: 'CRON_SECRET (operations; unset = 404)' },
  adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN (operations; unset = 404)' },
  metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN (Prometheus scrapes; unset = 404)' },
};

export function securityOf(access: Access): Record<string, string[]>[] {
  switch (access) {
    case 'public':
      return [];
    case 'optional':
      return [{}, { bearer: [] }, { session: [] }];
    case 'cron':
      return [{ cronSecret: [] }];
    case 'admin':
      return [{ adminToken: [] }];
    case 'metrics':
      return [{ metricsToken: [] }];
    default:
      return [{ bearer: [] }, { session: [] }];
  }
}

const ACCESS_NOTES: Partial<Record<Access, string>> = {
  optional: 'A token is optional: it may show the caller more.',
  user: 'Requires a signed-in user.',
  CLIENT: 'Requires the CLIENT role.',
  AGENT: 'Requires the AGENT role.',
  cron: 'Operator only: `Authorization: Bearer $CRON_SECRET`.',
  admin: 'Operator only: `Authorization: Bearer $ADMIN_TOKEN`.',
  metrics: 'Operator only: `Authorization: Bearer $METRICS_TOKEN`.',
};

/** Who may call, in words, ahead of the route's own description. */
export function describeAccess(route: Operation): string | undefined {
  const parts = [ACCESS_NOTES[route.access], route.limited ? 'Rate-limited.' : undefined, route.description];
  const text = parts.filter(Boolean).join(' ');
  return text || undefined;
}
