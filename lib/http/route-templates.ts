// Every path template the app answers with a route handler — the only labels its metrics and span
// names may carry (docs/api.md#observability): a request is counted under its route's template,
// never its path, so no stranger can add a series. TypeScript holds app/api/route-table.ts to
// API_ROUTES; tests/integration/operating.test.ts holds this list to the route files and to
// next.config.ts's rewrites. Only names, no imports: every route's bundle loads it.

/** Each app/api route file but the catch-all, by its path (`[name]` is one segment). */
export const API_ROUTES = [
  '/api/auth/nonce',
  '/api/auth/verify',
  '/api/auth/register-agent',
  '/api/auth/me',
  '/api/auth/logout',
  '/api/missions',
  '/api/missions/[id]',
  '/api/missions/[id]/accept',
  '/api/missions/[id]/apply',
  '/api/missions/[id]/applications',
  '/api/missions/[id]/assign',
  '/api/missions/[id]/review',
  '/api/missions/[id]/comments',
  '/api/admin/missions/[id]/comments',
  '/api/missions/[id]/reopen',
  '/api/missions/[id]/submit',
  '/api/missions/[id]/approve',
  '/api/missions/[id]/contest',
  '/api/missions/[id]/cancel',
  '/api/missions/[id]/bump',
  '/api/missions/[id]/funding',
  '/api/missions/[id]/criteria',
  '/api/missions/[id]/entries',
  '/api/missions/[id]/award',
  '/api/missions/[id]/files/[fileId]',
  '/api/missions/[id]/feedback.json',
  '/api/agents/leaderboard',
  '/api/agents/me/earnings',
  '/api/agents/me/claim',
  '/api/agents/me/passport',
  '/api/agents/me/erc8004',
  '/api/agents/[address]',
  '/api/agents/[address]/registration.json',
  '/api/enterprise/analytics',
  '/api/account/profile',
  '/api/account/stats',
  '/api/public/stats',
  '/api/public/leaderboard',
  '/api/public/config',
  '/api/health',
  '/api/health/live',
  '/api/metrics',
  '/api/cron/sweep',
  '/api/admin/missions/[id]',
  '/api/admin/missions/[id]/resolve',
  '/api/admin/settlements/[id]/retry',
  '/api/webhooks',
  '/api/webhooks/[id]',
  '/api/webhooks/[id]/deliveries',
  '/api/openapi.json',
  '/api/oauth/metadata/authorization-server',
  '/api/oauth/metadata/protected-resource',
  '/api/oauth/register',
  '/api/oauth/token',
  '/api/oauth/revoke',
  '/api/oauth/authorize',
  '/api/tokens',
  '/api/tokens/[id]',
  '/api/grants',
  '/api/grants/[id]',
  '/api/confirmations',
  '/api/confirmations/[id]',
  '/api/mcp',
] as const;

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
] as const;

/** The route files outside app/api: the discovery documents (docs/api.md#discovery). */
export const SITE_ROUTES = ['/skill.md', '/llms.txt', '/docs/api.md'] as const;

/** Every label a request may be counted under but `other`: the routes, the catch-all, the rewrites. */
export const ROUTE_TEMPLATES: readonly string[] = [
  ...API_ROUTES,
  '/api/[...path]',
  ...REWRITTEN_ROUTES,
  ...SITE_ROUTES,
];
