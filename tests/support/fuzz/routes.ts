// Every route handler of app/api with the parameters it needs, for the property tests.
import * as accountProfile from '@/app/api/account/profile/route';
import * as accountStats from '@/app/api/account/stats/route';
import * as adminResolve from '@/app/api/admin/missions/[id]/resolve/route';
import * as settlementRetry from '@/app/api/admin/settlements/[id]/retry/route';
import * as adminComments from '@/app/api/admin/missions/[id]/comments/route';
import * as apply from '@/app/api/missions/[id]/apply/route';
import * as award from '@/app/api/missions/[id]/award/route';
import * as entries from '@/app/api/missions/[id]/entries/route';
import * as applications from '@/app/api/missions/[id]/applications/route';
import * as assign from '@/app/api/missions/[id]/assign/route';
import * as review from '@/app/api/missions/[id]/review/route';
import * as comments from '@/app/api/missions/[id]/comments/route';
import * as webhooks from '@/app/api/webhooks/route';
import * as webhook from '@/app/api/webhooks/[id]/route';
import * as webhookDeliveries from '@/app/api/webhooks/[id]/deliveries/route';
import * as agentProfile from '@/app/api/agents/[address]/route';
import * as leaderboard from '@/app/api/agents/leaderboard/route';
import * as claim from '@/app/api/agents/me/claim/route';
import * as earnings from '@/app/api/agents/me/earnings/route';
import * as passport from '@/app/api/agents/me/passport/route';
import * as catchAll from '@/app/api/[...path]/route';
import * as logout from '@/app/api/auth/logout/route';
import * as me from '@/app/api/auth/me/route';
import * as nonce from '@/app/api/auth/nonce/route';
import * as registerAgent from '@/app/api/auth/register-agent/route';
import * as verify from '@/app/api/auth/verify/route';
import * as sweep from '@/app/api/cron/sweep/route';
import * as analytics from '@/app/api/enterprise/analytics/route';
import * as healthLive from '@/app/api/health/live/route';
import * as health from '@/app/api/health/route';
import * as metricsRoute from '@/app/api/metrics/route';
import * as accept from '@/app/api/missions/[id]/accept/route';
import * as approve from '@/app/api/missions/[id]/approve/route';
import * as bump from '@/app/api/missions/[id]/bump/route';
import * as cancel from '@/app/api/missions/[id]/cancel/route';
import * as contest from '@/app/api/missions/[id]/contest/route';
import * as fileDownload from '@/app/api/missions/[id]/files/[fileId]/route';
import * as mission from '@/app/api/missions/[id]/route';
import * as reopen from '@/app/api/missions/[id]/reopen/route';
import * as submit from '@/app/api/missions/[id]/submit/route';
import * as missions from '@/app/api/missions/route';
import * as openapi from '@/app/api/openapi.json/route';
import * as publicConfig from '@/app/api/public/config/route';
import * as publicLeaderboard from '@/app/api/public/leaderboard/route';
import * as publicStats from '@/app/api/public/stats/route';
import * as grants from '@/app/api/grants/route';
import * as grant from '@/app/api/grants/[id]/route';
import * as mcp from '@/app/api/mcp/route';
import * as oauthAuthorize from '@/app/api/oauth/authorize/route';
import * as oauthServerMetadata from '@/app/api/oauth/metadata/authorization-server/route';
import * as oauthResourceMetadata from '@/app/api/oauth/metadata/protected-resource/route';
import * as oauthRegister from '@/app/api/oauth/register/route';
import * as oauthRevoke from '@/app/api/oauth/revoke/route';
import * as oauthToken from '@/app/api/oauth/token/route';
import * as tokens from '@/app/api/tokens/route';
import * as token from '@/app/api/tokens/[id]/route';

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Module = Partial<Record<'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', Handler>>;

export interface FuzzRoute {
  path: string;
  method: string;
  handler: Handler;
  /** Which path parameters it takes: the fixture mission's id, an agent's address, a file id. */
  params: ('id' | 'address' | 'fileId' | 'path')[];
}

const modules: [string, Module, FuzzRoute['params']][] = [
  ['/api/account/profile', accountProfile, []],
  ['/api/account/stats', accountStats, []],
  ['/api/admin/missions/{id}/resolve', adminResolve, ['id']],
  ['/api/admin/settlements/{id}/retry', settlementRetry, ['id']],
  ['/api/admin/missions/{id}/comments', adminComments, ['id']],
  ['/api/missions/{id}/apply', apply, ['id']],
  ['/api/missions/{id}/entries', entries, ['id']],
  ['/api/missions/{id}/award', award, ['id']],
  ['/api/missions/{id}/applications', applications, ['id']],
  ['/api/missions/{id}/assign', assign, ['id']],
  ['/api/missions/{id}/review', review, ['id']],
  ['/api/missions/{id}/comments', comments, ['id']],
  ['/api/webhooks', webhooks, []],
  ['/api/webhooks/{id}', webhook, ['id']],
  ['/api/webhooks/{id}/deliveries', webhookDeliveries, ['id']],
  ['/api/agents/{address}', agentProfile, ['address']],
  ['/api/agents/leaderboard', leaderboard, []],
  ['/api/agents/me/claim', claim, []],
  ['/api/agents/me/earnings', earnings, []],
  ['/api/agents/me/passport', passport, []],
  ['/api/{path}', catchAll, ['path']],
  ['/api/auth/logout', logout, []],
  ['/api/auth/me', me, []],
  ['/api/auth/nonce', nonce, []],
  ['/api/auth/register-agent', registerAgent, []],
  ['/api/auth/verify', verify, []],
  ['/api/cron/sweep', sweep, []],
  ['/api/enterprise/analytics', analytics, []],
  ['/api/health/live', healthLive, []],
  ['/api/health', health, []],
  ['/api/metrics', metricsRoute, []],
  ['/api/missions/{id}/accept', accept, ['id']],
  ['/api/missions/{id}/approve', approve, ['id']],
  ['/api/missions/{id}/bump', bump, ['id']],
  ['/api/missions/{id}/cancel', cancel, ['id']],
  ['/api/missions/{id}/contest', contest, ['id']],
  ['/api/missions/{id}/files/{fileId}', fileDownload, ['id', 'fileId']],
  ['/api/missions/{id}', mission, ['id']],
  ['/api/missions/{id}/reopen', reopen, ['id']],
  ['/api/missions/{id}/submit', submit, ['id']],
  ['/api/missions', missions, []],
  ['/api/openapi.json', openapi, []],
  ['/api/public/config', publicConfig, []],
  ['/api/public/leaderboard', publicLeaderboard, []],
  ['/api/public/stats', publicStats, []],
  ['/api/grants', grants, []],
  ['/api/grants/{id}', grant, ['id']],
  ['/api/mcp', mcp, []],
  ['/api/oauth/authorize', oauthAuthorize, []],
  ['/api/oauth/metadata/authorization-server', oauthServerMetadata, []],
  ['/api/oauth/metadata/protected-resource', oauthResourceMetadata, []],
  ['/api/oauth/register', oauthRegister, []],
  ['/api/oauth/revoke', oauthRevoke, []],
  ['/api/oauth/token', oauthToken, []],
  ['/api/tokens', tokens, []],
  ['/api/tokens/{id}', token, ['id']],
];

export const ROUTES: FuzzRoute[] = modules.flatMap(([path, module, params]) =>
  Object.entries(module)
    .filter(([method, handler]) => ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].includes(method) && typeof handler === 'function')
    .map(([method, handler]) => ({ path, method, handler: handler as Handler, params })),
);

export const MODULE_COUNT = modules.length;
