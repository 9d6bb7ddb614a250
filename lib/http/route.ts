// The route wrapper: the cross-cutting work of every endpoint, done once — rate limits,
// authentication and roles, query and body validation, and the mapping of every failure to
// `{ error, details? }` (docs/api.md#errors). Handlers receive plain validated values.
import 'server-only';
import type { z } from 'zod';
import { type Config, config } from '../config';
import { type Db, getDb } from '../db/client';
import { getKv, type Kv } from '../kv';
import { afterResponse } from './after-response';
import { type OutboxMarks, withOutboxMarks } from '../outbox/marks';
import { sendQueuedWebhooks } from '../webhooks';
import { drainMissionSends } from './outbox-drain';
import { log } from '../log';
import { noteCallerRole } from '../observability/request-context';
import type { Caller } from '../oauth/caller';
import { addressedResource, authenticate } from './auth-guard';
import { clientIp, sourceOf } from './client-ip';
import { ApiError, OAuthError, unavailableDependency } from '../errors';
import { type OperatorSecret, requireOperator } from './operator-auth';
import { assertAllowedOrigin } from './origin';
import { CORS_HEADERS } from './cors';
import { json } from './json-response';
import { type Handler, observed } from './observed';
import type { OperationDoc } from './operation-doc';
import { EVERYONE, LIMITS, type LimitName, PendingCharge, consume } from '../limits/rate-limit';
import { validate } from '../fields';
import { readForm, readJson } from './validation';
import type { ResourceName } from '../auth/resources';
import { bearerChallenge, scopeChallenge, withScopes } from '../oauth/metadata';
import { requireScope, ScopeRefusal, type ScopeRule, scopesOfRule } from '../oauth/scopes';

// Routes and lib/ answer through route.ts, as they always did.
export { json, jsonText } from './json-response';

type Role = 'CLIENT' | 'AGENT';

export interface RouteOptions {
  /** `user`: any signed-in user; a role: that role; `optional`: identify the caller when it can. */
  auth?: 'user' | Role | 'optional';
  limit?: LimitName;
  /**
   * The path's `[param]` segments and their schemas: one that fails is a 404 before the handler runs
   * (docs/api.md#errors: malformed ids included), so no handler or domain re-checks an id.
   */
  params?: Record<string, z.ZodType>;
  query?: z.ZodType;
  body?: z.ZodType;
  /** An `application/x-www-form-urlencoded` body instead of JSON (OAuth's token endpoint, the consent form). */
  form?: true;
  maxBodyBytes?: number;
  /**
   * What a delegated credential (an OAuth access token or a tm_ personal token) must hold to call an
   * authenticated route; a wallet sign-in may do everything. Unset: a wallet sign-in only (docs/api.md#tokens).
   */
  scope?: ScopeRule;
  /** The protected resource the route is (docs/api.md#audience): the REST API's unless it says `mcp`. */
  resource?: ResourceName;
  /**
   * Another resource whose access tokens this route also accepts (docs/api.md#audience): a confirmation
   * is readable with the /api/mcp token that asked for it (docs/api.md#confirmations).
   */
  alsoFor?: ResourceName;
  /** Authorized by an operator secret (ADMIN_TOKEN or CRON_SECRET) instead of a user. */
  operator?: OperatorSecret;
  /** The response sets or clears the session cookie: a present Origin must be allowed (docs/api.md#origins). */
  session?: true;
  /** The endpoint's entry in the OpenAPI document, beside what the options above already say. */
  doc?: OperationDoc;
  /** Readable by a page of any origin, without credentials (docs/api.md#cors): its answers, errors included. */
  cors?: true;
  /**
   * The rows of the mission transition table this route runs (lib/missions/transitions.ts), the first
   * deciding its scope: `npm run routes:generate` reads them into lib/missions/action-routes.ts, which a
   * mission's `actions` name the route by (docs/api.md#next-actions).
   */
  runs?: readonly string[];
}

/** A body is stated once: by the `body` option when the wrapper validates it, else by the doc. */
type OneBody<O extends RouteOptions> = O extends { body: z.ZodType } ? { doc?: { body?: never } } : unknown;

/** No option the wrapper does not know: a generic parameter skips TypeScript's excess-property check. */
type KnownOptions<O> = { [K in Exclude<keyof O, keyof RouteOptions>]: never };

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

type Params<P> = P extends Record<string, z.ZodType> ? { [K in keyof P]: z.infer<P[K]> } : Record<string, never>;

export interface RouteContext<O extends RouteOptions> {
  request: Request;
  params: Params<O['params']>;
  query: Infer<O['query']>;
  body: Infer<O['body']>;
  caller: O['auth'] extends 'user' | Role ? Caller : Caller | undefined;
  ip: string;
  /** The request's hit against a `withWork` limit, for the handler's KV step to count (rate-limit.ts). */
  charge: PendingCharge | undefined;
  cfg: Config;
  kv: Kv;
  db: () => Promise<Db>;
}

const DEFAULT_MAX_BODY = 16 * 1024;

/** A route handler that carries the options it was declared with: the OpenAPI document is made of them. */
export type RouteHandler<O extends RouteOptions> = Handler & { readonly options: O };

export function route<O extends RouteOptions>(
  options: O & OneBody<O> & KnownOptions<O>,
  handler: (ctx: RouteContext<O>) => Promise<Response>,
): RouteHandler<O> {
  const handle: Handler = async (request, next) => {
    const corsHeaders = options.cors ? CORS_HEADERS : {};
    let limitHeaders: Record<string, string> = {};
    let charge: PendingCharge | undefined;
    try {
      const cfg = config();
      const kv = getKv();
      const ip = clientIp(request.headers, cfg.trustProxy, cfg.onVercel);
      const limit = options.limit ? LIMITS[options.limit] : undefined;
      if (limit?.scope === 'ip' && 'withWork' in limit) charge = new PendingCharge(cfg, options.limit!, ip);
      else if (limit?.scope === 'ip') limitHeaders = await consume(kv, cfg, options.limit!, ip);
      else if (limit?.scope === 'source') limitHeaders = await consume(kv, cfg, options.limit!, sourceOf(ip));
      else if (limit?.scope === 'global') limitHeaders = await consume(kv, cfg, options.limit!, EVERYONE);
      if (options.session) assertAllowedOrigin(request, cfg, 'allow');
      if (options.operator) await requireOperator(request, options.operator, cfg, kv, ip);
      if (options.operator) noteCallerRole('operator');

      // RFC 6750 §2.3 / OAuth 2.1: a token in a URL ends up in logs and Referer headers.
      if (request.url.includes('access_token=') && new URL(request.url).searchParams.has('access_token')) {
        throw new ApiError(400, 'Access tokens are not accepted in the query string; send Authorization: Bearer');
      }
      const rule = options.scope ?? 'session';
      const resource = addressedResource(request, options.resource);
      const caller = options.auth
        ? await challenged(cfg, resource, rule, authenticate(request, cfg, kv, getDb, resource, options.alsoFor))
        : undefined;
      if (caller) noteCallerRole(caller.user.role);
      if (options.auth && options.auth !== 'optional') {
        if (!caller) {
          throw new ApiError(401, 'Authentication required', undefined, {
            'WWW-Authenticate': bearerChallenge(cfg, resource, scopesOfRule(rule)),
          });
        }
        if (options.auth !== 'user' && caller.user.role !== options.auth) {
          throw new ApiError(403, `${options.auth === 'AGENT' ? 'Agent' : 'Client'} role required`);
        }
      }
      if (caller) stepUp(cfg, resource, () => requireScope(caller.grant?.scopes, rule));
      if (limit?.scope === 'user' && caller) limitHeaders = await consume(kv, cfg, options.limit!, caller.user.id);

      const query = options.query
        ? validate(options.query, Object.fromEntries(new URL(request.url).searchParams))
        : undefined;
      const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
      const body = options.body
        ? validate(options.body, options.form ? await readForm(request, maxBody) : await readJson(request, maxBody))
        : undefined;
      const params = await pathParams(options.params, next?.params);

      // docs/api.md#one-door: whatever the handler wrote to the outboxes leaves by the one drain below.
      const { result: response, marks } = await withOutboxMarks(() =>
        handler({
          request,
          params,
          query,
          body,
          caller,
          ip,
          charge,
          cfg,
          kv,
          db: getDb,
        } as RouteContext<O>),
      );
      if (response.ok) await drain(cfg, marks);
      if (charge) limitHeaders = charge.headers ?? (await consume(kv, cfg, options.limit!, ip));
      for (const [name, value] of Object.entries({ ...limitHeaders, ...corsHeaders }))
        response.headers.set(name, value);
      return response;
    } catch (error) {
      return errorResponse(await countedRefusal(error, charge), request, {
        ...(charge?.headers ?? limitHeaders),
        ...corsHeaders,
      });
    }
  };
  return Object.assign(observed(handle), { options });
}

/** The path's segments as the route's `params` read them; any that fails names no resource: 404. */
async function pathParams(
  schemas: Record<string, z.ZodType> | undefined,
  segments: Promise<Record<string, string | string[]>> | undefined,
): Promise<Record<string, unknown>> {
  const given = (await segments) ?? {};
  const read: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(schemas ?? {})) {
    const value = given[name];
    const parsed = schema.safeParse(Array.isArray(value) ? value.join('/') : value);
    if (!parsed.success) throw new ApiError(404, 'Not found');
    read[name] = parsed.data;
  }
  return read;
}

/**
 * A refused credential's 401 tells an OAuth client where to authorize (RFC 6750 §3, RFC 9728 §5.1) and
 * what to ask for (docs/api.md#least-privilege).
 */
async function challenged<T>(
  cfg: Config,
  resource: ResourceName,
  rule: ScopeRule,
  authentication: Promise<T>,
): Promise<T> {
  try {
    return await authentication;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      const challenge = bearerChallenge(cfg, resource, scopesOfRule(rule), ', error="invalid_token"');
      throw new ApiError(401, error.message, error.details, { 'WWW-Authenticate': challenge });
    }
    throw error;
  }
}

/**
 * A token without the scope a route needs is a 403 that says which scopes to re-authorize for
 * (RFC 6750 §3.1, MCP authorization's scope challenge; docs/api.md#step-up): on a call a tool makes
 * inside /api/mcp, /api/mcp's own (app/api/mcp/route.ts answers it as the endpoint's 403).
 */
function stepUp(cfg: Config, resource: ResourceName, check: () => void): void {
  try {
    check();
  } catch (error) {
    if (!(error instanceof ScopeRefusal)) throw error;
    const challenge = scopeChallenge(cfg, resource, withScopes(error.held, [error.needed]));
    throw new ApiError(403, error.message, undefined, { 'WWW-Authenticate': challenge });
  }
}

/**
 * Every request counts against its limit: one refused before its handler's KV step counted the hit
 * (a malformed body, say) is counted now, and past the limit the answer is 429 instead.
 */
async function countedRefusal(error: unknown, charge: PendingCharge | undefined): Promise<unknown> {
  if (!charge || charge.headers) return error;
  try {
    charge.record(await getKv().hit(charge.key, charge.windowMs));
    return error;
  } catch (refusal) {
    return refusal;
  }
}

/**
 * A successful request's sends: its settlements and feedback before the answer (an approve answers once
 * its payout is sent, as it always did), its webhooks once the answer has gone.
 */
async function drain(cfg: Config, marks: OutboxMarks): Promise<void> {
  if (marks.missions.size > 0) await drainMissionSends(await getDb(), cfg, marks);
  if (marks.webhooks) afterResponse(() => sendQueuedWebhooks(cfg));
}

export function errorResponse(error: unknown, request: Request, headers: Record<string, string> = {}): Response {
  if (error instanceof OAuthError) {
    return json(
      { error: error.code, error_description: error.message },
      { status: error.status, headers: { ...headers, ...error.headers } },
    );
  }
  if (error instanceof ApiError) {
    const body = error.details?.length ? { error: error.message, details: error.details } : { error: error.message };
    return json(body, { status: error.status, headers: { ...headers, ...error.headers } });
  }
  const dependency = unavailableDependency(error);
  if (dependency) {
    // viem's messages carry the whole request (calldata included); its shortMessage is the cause.
    const inner =
      error instanceof Error && error.cause instanceof Error
        ? (error.cause as Error & { shortMessage?: string })
        : undefined;
    const cause = inner ? (inner.shortMessage ?? inner.message) : undefined;
    log.warn('dependency.unavailable', {
      dependency,
      cause,
      method: request.method,
      path: new URL(request.url).pathname,
    });
    return json(
      { error: 'Service temporarily unavailable', details: [`${dependency} unreachable`] },
      {
        status: 503,
        headers: { ...headers, 'Retry-After': '5' },
      },
    );
  }
  log.error('request.failed', { method: request.method, path: new URL(request.url).pathname, error });
  return json({ error: 'Internal error' }, { status: 500, headers });
}
