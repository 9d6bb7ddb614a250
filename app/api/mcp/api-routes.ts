// The API as the remote MCP tools reach it: the SDK's requests dispatched to this app's own route
// handlers in the same process — the same wrapper, scopes, limits and error texts as over HTTP,
// without a second trip through the network. Every user-facing route of the route table is here (a
// test walks app/api to keep it so).
import { SERVICE_ROUTES } from '@/app/api/route-table';
import { madeInsideMcp, vouchFor } from '@/lib/http/auth-guard';
import type { Caller } from '@/lib/oauth/caller';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import type { Method } from '@/lib/http/methods';
import type { RouteModule, RouteTable } from '@/lib/http/route-table';

// Not for tools: the operator's routes, signing in with a wallet, OAuth and token management (a tool
// holds a delegated token and must not mint or manage credentials), health, and editing a mission's
// criteria before it is funded (a wallet sign-in's alone). MCP itself and the document are not
// service routes at all.
// The list of a person's confirmations is theirs alone; one confirmation is readable by the token that asked.
const NOT_FOR_TOOLS = new RegExp(
  '^/api/(admin|cron|metrics|oauth|tokens|grants|health|auth/(nonce|verify)|' +
    'confirmations$|missions/\\[id\\]/criteria$)(/|$)',
);

/** The routes the tools reach. */
export function routesForTools(): RouteTable {
  return SERVICE_ROUTES.filter(([template]) => !NOT_FOR_TOOLS.test(template));
}

let compiled: { regex: RegExp; names: string[]; module: RouteModule }[] | undefined;

// Compiled on first use: most processes that load this module never call a tool.
function compiledRoutes() {
  compiled ??= routesForTools().map(([template, module]) => {
    const names: string[] = [];
    const pattern = template.replace(/\[(\w+)\]/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { regex: new RegExp(`^${pattern}$`), names, module };
  });
  return compiled;
}

// Headers of the outer request that say who the client is: the inner requests count against the
// same per-IP limits (lib/http/client-ip.ts decides which of them it trusts).
const CLIENT_HEADERS = ['x-real-ip', 'x-forwarded-for', SOCKET_ADDRESS_HEADER];

/**
 * A fetch for the SDK that answers from the route handlers, as `outer`'s client. A read with the
 * outer request's own credential carries the caller the MCP route authenticated moments ago;
 * a write authenticates again, so a role changed within the call (register_agent) is seen. Each
 * call is part of the MCP request: a token issued for /api/mcp is accepted (docs/api.md#audience).
 */
export function inProcessFetch(outer: Request, caller: Caller): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    for (const name of CLIENT_HEADERS) {
      const value = outer.headers.get(name);
      if (value !== null) request.headers.set(name, value);
    }
    madeInsideMcp(request);
    if (request.method === 'GET' && request.headers.get('authorization') === outer.headers.get('authorization'))
      vouchFor(request, caller);
    const { pathname } = new URL(request.url);
    for (const { regex, names, module } of compiledRoutes()) {
      const match = regex.exec(pathname);
      if (!match) continue;
      const handler = module[request.method as Method];
      if (!handler) return Response.json({ error: `Method ${request.method} not allowed` }, { status: 405 });
      const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
      // Part of the MCP request, which is observed already: its id, span and log lines are this
      // call's too, and the request metrics count HTTP requests, not the tools' inner calls.
      return (handler.unobserved ?? handler)(request, { params: Promise.resolve(params) });
    }
    return Response.json({ error: 'Not found' }, { status: 404 });
  };
}
