// Every route file of app/api but the catch-all, the document and MCP, by its path: the routes the
// remote MCP tools' in-process calls reach (mcp/api-routes.ts) and, with the document and MCP
// added, the whole table (documented-routes.ts), which the OpenAPI document (/api/openapi.json,
// /docs, the SDK's generated sources) reads. Each endpoint describes itself in its route's options;
// adding a route file = adding its line here (tests/integration/openapi.test.ts fails without it)
// and its template to lib/http/route-templates.ts (type-checked). The order is the document's.
import type { RouteTable } from '@/lib/http/route-table';
import type { ApiRouteTemplate } from '@/lib/http/route-templates';
import * as account from '@/app/api/account/profile/route';
import * as accountStats from '@/app/api/account/stats/route';
import * as adminMission from '@/app/api/admin/missions/[id]/route';
import * as adminComments from '@/app/api/admin/missions/[id]/comments/route';
import * as resolve from '@/app/api/admin/missions/[id]/resolve/route';
import * as retrySettlement from '@/app/api/admin/settlements/[id]/retry/route';
import * as agent from '@/app/api/agents/[address]/route';
import * as agentsLeaderboard from '@/app/api/agents/leaderboard/route';
import * as claim from '@/app/api/agents/me/claim/route';
import * as earnings from '@/app/api/agents/me/earnings/route';
import * as passport from '@/app/api/agents/me/passport/route';
import * as erc8004Link from '@/app/api/agents/me/erc8004/route';
import * as registrationFile from '@/app/api/agents/[address]/registration.json/route';
import * as logout from '@/app/api/auth/logout/route';
import * as me from '@/app/api/auth/me/route';
import * as nonce from '@/app/api/auth/nonce/route';
import * as registerAgent from '@/app/api/auth/register-agent/route';
import * as verify from '@/app/api/auth/verify/route';
import * as sweep from '@/app/api/cron/sweep/route';
import * as analytics from '@/app/api/enterprise/analytics/route';
import * as grants from '@/app/api/grants/route';
import * as grant from '@/app/api/grants/[id]/route';
import * as confirmationsRoute from '@/app/api/confirmations/route';
import * as confirmation from '@/app/api/confirmations/[id]/route';
import * as health from '@/app/api/health/route';
import * as live from '@/app/api/health/live/route';
import * as metrics from '@/app/api/metrics/route';
import * as missions from '@/app/api/missions/route';
import * as mission from '@/app/api/missions/[id]/route';
import * as feedbackFile from '@/app/api/missions/[id]/feedback.json/route';
import * as accept from '@/app/api/missions/[id]/accept/route';
import * as applications from '@/app/api/missions/[id]/applications/route';
import * as apply from '@/app/api/missions/[id]/apply/route';
import * as approve from '@/app/api/missions/[id]/approve/route';
import * as assign from '@/app/api/missions/[id]/assign/route';
import * as award from '@/app/api/missions/[id]/award/route';
import * as bump from '@/app/api/missions/[id]/bump/route';
import * as funding from '@/app/api/missions/[id]/funding/route';
import * as criteria from '@/app/api/missions/[id]/criteria/route';
import * as cancel from '@/app/api/missions/[id]/cancel/route';
import * as comments from '@/app/api/missions/[id]/comments/route';
import * as contest from '@/app/api/missions/[id]/contest/route';
import * as entries from '@/app/api/missions/[id]/entries/route';
import * as file from '@/app/api/missions/[id]/files/[fileId]/route';
import * as reopen from '@/app/api/missions/[id]/reopen/route';
import * as review from '@/app/api/missions/[id]/review/route';
import * as submit from '@/app/api/missions/[id]/submit/route';
import * as authorize from '@/app/api/oauth/authorize/route';
import * as authorizationServer from '@/app/api/oauth/metadata/authorization-server/route';
import * as protectedResource from '@/app/api/oauth/metadata/protected-resource/route';
import * as register from '@/app/api/oauth/register/route';
import * as revoke from '@/app/api/oauth/revoke/route';
import * as token from '@/app/api/oauth/token/route';
import * as publicConfig from '@/app/api/public/config/route';
import * as publicLeaderboard from '@/app/api/public/leaderboard/route';
import * as publicStats from '@/app/api/public/stats/route';
import * as tokens from '@/app/api/tokens/route';
import * as personalToken from '@/app/api/tokens/[id]/route';
import * as webhooks from '@/app/api/webhooks/route';
import * as webhook from '@/app/api/webhooks/[id]/route';
import * as deliveries from '@/app/api/webhooks/[id]/deliveries/route';

// Each template is one of API_ROUTES (lib/http/route-templates.ts), which metrics and traces label by.
export const SERVICE_ROUTES: RouteTable<ApiRouteTemplate> = [
  // Auth (docs/api.md#auth)
  ['/api/auth/nonce', nonce],
  ['/api/auth/verify', verify],
  ['/api/auth/register-agent', registerAgent],
  ['/api/auth/me', me],
  ['/api/auth/logout', logout],

  // Missions, their marketplace and bounties (docs/api.md#missions, #bounties)
  ['/api/missions', missions],
  ['/api/missions/[id]', mission],
  ['/api/missions/[id]/accept', accept],
  ['/api/missions/[id]/apply', apply],
  ['/api/missions/[id]/applications', applications],
  ['/api/missions/[id]/assign', assign],
  ['/api/missions/[id]/review', review],
  ['/api/missions/[id]/comments', comments],
  ['/api/admin/missions/[id]/comments', adminComments],
  ['/api/missions/[id]/reopen', reopen],
  ['/api/missions/[id]/submit', submit],
  ['/api/missions/[id]/approve', approve],
  ['/api/missions/[id]/contest', contest],
  ['/api/missions/[id]/cancel', cancel],
  ['/api/missions/[id]/bump', bump],
  ['/api/missions/[id]/funding', funding],
  ['/api/missions/[id]/criteria', criteria],
  ['/api/missions/[id]/entries', entries],
  ['/api/missions/[id]/award', award],
  ['/api/missions/[id]/files/[fileId]', file],
  ['/api/missions/[id]/feedback.json', feedbackFile],

  // Agents, enterprise, account and public (docs/api.md#directory, #account)
  ['/api/agents/leaderboard', agentsLeaderboard],
  ['/api/agents/me/earnings', earnings],
  ['/api/agents/me/claim', claim],
  ['/api/agents/me/passport', passport],
  ['/api/agents/me/erc8004', erc8004Link],
  ['/api/agents/[address]', agent],
  ['/api/agents/[address]/registration.json', registrationFile],
  ['/api/enterprise/analytics', analytics],
  ['/api/account/profile', account],
  ['/api/account/stats', accountStats],
  ['/api/public/stats', publicStats],
  ['/api/public/leaderboard', publicLeaderboard],
  ['/api/public/config', publicConfig],

  // Operations (docs/api.md#operations)
  ['/api/health', health],
  ['/api/health/live', live],
  ['/api/metrics', metrics],
  ['/api/cron/sweep', sweep],
  ['/api/admin/missions/[id]', adminMission],
  ['/api/admin/missions/[id]/resolve', resolve],
  ['/api/admin/settlements/[id]/retry', retrySettlement],

  // Webhooks (docs/api.md#webhooks)
  ['/api/webhooks', webhooks],
  ['/api/webhooks/[id]', webhook],
  ['/api/webhooks/[id]/deliveries', deliveries],

  // Remote agents: OAuth 2.1, tokens, MCP (docs/api.md#tokens)
  ['/api/oauth/metadata/authorization-server', authorizationServer],
  ['/api/oauth/metadata/protected-resource', protectedResource],
  ['/api/oauth/register', register],
  ['/api/oauth/token', token],
  ['/api/oauth/revoke', revoke],
  ['/api/oauth/authorize', authorize],
  ['/api/tokens', tokens],
  ['/api/tokens/[id]', personalToken],
  ['/api/grants', grants],
  ['/api/grants/[id]', grant],
  ['/api/confirmations', confirmationsRoute],
  ['/api/confirmations/[id]', confirmation],
];
