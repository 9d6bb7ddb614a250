// The API as the remote MCP tools reach it: the SDK's requests dispatched to this app's own route
// handlers in the same process — the same wrapper, scopes, limits and error texts as over HTTP,
// without a second trip through the network. Every user-facing route is here (a test walks app/api
// to keep it so); operator, OAuth and token routes are not for tools.
import * as account from '@/app/api/account/profile/route';
import * as accountStats from '@/app/api/account/stats/route';
import * as agent from '@/app/api/agents/[address]/route';
import * as agentsLeaderboard from '@/app/api/agents/leaderboard/route';
import * as claim from '@/app/api/agents/me/claim/route';
import * as earnings from '@/app/api/agents/me/earnings/route';
import * as passport from '@/app/api/agents/me/passport/route';
import * as logout from '@/app/api/auth/logout/route';
import * as me from '@/app/api/auth/me/route';
import * as registerAgent from '@/app/api/auth/register-agent/route';
import * as analytics from '@/app/api/enterprise/analytics/route';
import * as missions from '@/app/api/missions/route';
import * as mission from '@/app/api/missions/[id]/route';
import * as accept from '@/app/api/missions/[id]/accept/route';
import * as applications from '@/app/api/missions/[id]/applications/route';
import * as award from '@/app/api/missions/[id]/award/route';
import * as entries from '@/app/api/missions/[id]/entries/route';
import * as apply from '@/app/api/missions/[id]/apply/route';
import * as approve from '@/app/api/missions/[id]/approve/route';
import * as assign from '@/app/api/missions/[id]/assign/route';
import * as bump from '@/app/api/missions/[id]/bump/route';
import * as cancel from '@/app/api/missions/[id]/cancel/route';
import * as comments from '@/app/api/missions/[id]/comments/route';
import * as contest from '@/app/api/missions/[id]/contest/route';
import * as file from '@/app/api/missions/[id]/files/[fileId]/route';
import * as reopen from '@/app/api/missions/[id]/reopen/route';
import * as review from '@/app/api/missions/[id]/review/route';
import * as submit from '@/app/api/missions/[id]/submit/route';
import * as publicConfig from '@/app/api/public/config/route';
import * as publicLeaderboard from '@/app/api/public/leaderboard/route';
import * as publicStats from '@/app/api/public/stats/route';
import * as webhooks from '@/app/api/webhooks/route';
import * as webhook from '@/app/api/webhooks/[id]/route';
import * as deliveries from '@/app/api/webhooks/[id]/deliveries/route';
import { type Caller, vouchFor } from '@/lib/http/auth-guard';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<string, Handler>>;

/** Path templates as in app/api: `[name]` is one segment. */
export const API_ROUTES: [template: string, module: RouteModule][] = [
  ['/api/account/profile', account],
  ['/api/account/stats', accountStats],
  ['/api/agents/leaderboard', agentsLeaderboard],
  ['/api/agents/me/claim', claim],
  ['/api/agents/me/earnings', earnings],
  ['/api/agents/me/passport', passport],
  ['/api/agents/[address]', agent],
  ['/api/auth/logout', logout],
  ['/api/auth/me', me],
  ['/api/auth/register-agent', registerAgent],
  ['/api/enterprise/analytics', analytics],
  ['/api/missions', missions],
  ['/api/missions/[id]', mission],
  ['/api/missions/[id]/accept', accept],
  ['/api/missions/[id]/applications', applications],
  ['/api/missions/[id]/award', award],
  ['/api/missions/[id]/entries', entries],
  ['/api/missions/[id]/apply', apply],
  ['/api/missions/[id]/approve', approve],
  ['/api/missions/[id]/assign', assign],
  ['/api/missions/[id]/bump', bump],
  ['/api/missions/[id]/cancel', cancel],
  ['/api/missions/[id]/comments', comments],
  ['/api/missions/[id]/contest', contest],
  ['/api/missions/[id]/files/[fileId]', file],
  ['/api/missions/[id]/reopen', reopen],
  ['/api/missions/[id]/review', review],
  ['/api/missions/[id]/submit', submit],
  ['/api/public/config', publicConfig],
  ['/api/public/leaderboard', publicLeaderboard],
  ['/api/public/stats', publicStats],
  ['/api/webhooks', webhooks],
  ['/api/webhooks/[id]', webhook],
  ['/api/webhooks/[id]/deliveries', deliveries],
];

const compiled = API_ROUTES.map(([template, module]) => {
  const names: string[] = [];
  const pattern = template.replace(/\[(\w+)\]/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { regex: new RegExp(`^${pattern}$`), names, module };
});

// Headers of the outer request that say who the client is: the inner requests count against the
// same per-IP limits (lib/http/client-ip.ts decides which of them it trusts).
const CLIENT_HEADERS = ['x-real-ip', 'x-forwarded-for', SOCKET_ADDRESS_HEADER];

/**
 * A fetch for the SDK that answers from the route handlers, as `outer`'s client. A read with the
 * outer request's own credential carries the caller the MCP route authenticated moments ago;
 * a write authenticates again, so a role changed within the call (register_agent) is seen.
 */
export function inProcessFetch(outer: Request, caller: Caller): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    for (const name of CLIENT_HEADERS) {
      const value = outer.headers.get(name);
      if (value !== null) request.headers.set(name, value);
    }
    if (request.method === 'GET' && request.headers.get('authorization') === outer.headers.get('authorization')) vouchFor(request, caller);
    const { pathname } = new URL(request.url);
    for (const { regex, names, module } of compiled) {
      const match = regex.exec(pathname);
      if (!match) continue;
      const handler = module[request.method];
      if (!handler) return Response.json({ error: `Method ${request.method} not allowed` }, { status: 405 });
      const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
      return handler(request, { params: Promise.resolve(params) });
    }
    return Response.json({ error: 'Not found' }, { status: 404 });
  };
}
