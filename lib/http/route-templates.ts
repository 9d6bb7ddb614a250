// Every path template the app answers with a route handler — the only labels its metrics and span
// names may carry (docs/api.md#observability): a request is counted under its route's template,
// never its path, so no stranger can add a series. The route files' own templates are generated
// (route-files.ts, `npm run routes:generate`); tests/integration/operating.test.ts holds the whole list
// to the route files and to next.config.ts's rewrites. Only names: every route's bundle loads it.
import { API_ROUTES, SITE_ROUTES } from './route-files';

export { API_ROUTES, SITE_ROUTES };

export type ApiRouteTemplate = (typeof API_ROUTES)[number];

/**
 * The paths next.config.ts rewrites to a route, by their own template: Next.js hands the route the
 * request's original URL (`[...path]` is one or more segments).
 */
export const REWRITTEN_ROUTES = [
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-authorization-server/[...path]',
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/[...path]',
  // docs/api.md#server-card, docs/api.md#client-feedback
  '/.well-known/mcp/server-card.json',
  '/.well-known/taskmarket-reputation.json',
] as const;

/** Every label a request may be counted under but `other`: the routes, the catch-all, the rewrites. */
export const ROUTE_TEMPLATES: readonly string[] = [
  ...API_ROUTES,
  '/api/[...path]',
  ...REWRITTEN_ROUTES,
  ...SITE_ROUTES,
];
