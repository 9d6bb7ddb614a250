// The API as the remote MCP tools reach it: the SDK's requests dispatched to this app's own route
// handlers in the same process — the same wrapper, scopes, limits and error texts as over HTTP,
// without a second trip through the network. Every user-facing route of the route table is here (a
// test walks app/api to keep it so).
import { SERVICE_ROUTES } from '@/app/api/route-table';
import { madeInsideMcp, vouchFor } from '@/lib/http/auth-guard';
import type { Caller } from '@/lib/oauth/caller';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { METHODS, type Method } from '@/lib/http/methods';
import type { RouteOptions } from '@/lib/http/route';
import type { RouteModule, RouteTable } from '@/lib/http/route-table';

/**
 * Whether a tool may call a route's method, from the options it was declared with — fail closed: a
 * route reaches the tools only by saying what a delegated token may do there. A tool acts as its
 * caller, who holds a delegated token (or a wallet's, used as one), so it reaches a method a
 * delegated token may call (authenticated, with a scope other than `session`) and the public reads
 * (a GET without auth, which anyone may make). Never what only a wallet sign-in may do (`session`:
 * minting and managing tokens and grants, the profile, deciding a confirmation, editing criteria),
 * an operator's, or an unauthenticated write (signing in, the OAuth endpoints: they make credentials
 * rather than act as one). A method without options (a 405 of otherMethods) is not reached either.
 */
export function toolMayCall(method: Method, options: RouteOptions | undefined): boolean {
  if (!options || options.operator !== undefined) return false;
  if (options.auth === undefined) return method === 'GET';
  return (options.scope ?? 'session') !== 'session';
}

/** A route table's methods the tools may call (toolMayCall); a route left with none is not there. */
export function toolRoutes<T extends string>(table: RouteTable<T>): RouteTable<T> {
  return table.flatMap(([template, module]) => {
    const allowed = Object.fromEntries(
      METHODS.filter((method) => toolMayCall(method, module[method]?.options)).map((m) => [m, module[m]]),
    ) as RouteModule;
    // A HEAD reads what its GET reads, no more (a download's size before its bytes, docs/api.md#files).
    if (allowed.GET && module.HEAD) allowed.HEAD = module.HEAD;
    return Object.keys(allowed).length > 0 ? [[template, allowed] as const] : [];
  });
}

/** The routes the tools reach, each with the methods they may call. */
export function routesForTools(): RouteTable {
  return toolRoutes(SERVICE_ROUTES);
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
 * A fetch for the SDK that answers from the route handlers, as `outer`'s client. A call with the
 * outer request's own credential, read or write, carries the caller the MCP route authenticated
 * moments ago: a tool call checks its token once (docs/api.md#mcp). After register_agent the SDK
 * holds the new token it was answered, so a later call is another credential, authenticated by its
 * route, and sees the new role. Each call is part of the MCP request: a token issued for /api/mcp
 * is accepted (docs/api.md#audience).
 */
export function inProcessFetch(outer: Request, caller: Caller): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    for (const name of CLIENT_HEADERS) {
      const value = outer.headers.get(name);
      if (value !== null) request.headers.set(name, value);
    }
    madeInsideMcp(request);
    const credential = outer.headers.get('authorization');
    if (credential !== null && request.headers.get('authorization') === credential) vouchFor(request, caller);
    const { pathname } = new URL(request.url);
    for (const { regex, names, module } of compiledRoutes()) {
      const match = regex.exec(pathname);
      if (!match) continue;
      const handler = module[request.method as Method | 'HEAD'];
      if (!handler) return Response.json({ error: `Method ${request.method} not allowed` }, { status: 405 });
      const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
      // Part of the MCP request, which is observed already: its id, span and log lines are this
      // call's too, and the request metrics count HTTP requests, not the tools' inner calls.
      return (handler.unobserved ?? handler)(request, { params: Promise.resolve(params) });
    }
    return Response.json({ error: 'Not found' }, { status: 404 });
  };
}
