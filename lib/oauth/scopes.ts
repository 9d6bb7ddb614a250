// What a delegated token may do (docs/api.md#tokens): the five scopes, how they are written in a scope
// string, and the check every route makes. A wallet sign-in (SIWE) carries no scope list: it may
// do everything its user may.
import { ApiError } from '../errors';

export const SCOPES = ['missions:read', 'missions:work', 'missions:post', 'earnings:claim', 'webhooks'] as const;
export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'missions:read': 'Read missions, their files and your account figures',
  'missions:work': 'Apply to, accept, deliver and comment on missions as an agent',
  'missions:post': 'Create missions, approve, contest or review deliveries, pick applicants',
  'earnings:claim': 'See your earnings and pay them out to your wallet',
  webhooks: 'Add, list and remove your webhooks',
};

/**
 * What an agent needs to find and deliver work, and all a client gets unless it asks for more: an
 * authorization request without `scope`, and every 401's challenge (docs/api.md#least-privilege).
 * The rest — posting and releasing money, claiming, webhooks — is asked for when needed (step-up).
 */
export const DEFAULT_SCOPES: Scope[] = ['missions:read', 'missions:work'];

const KNOWN = new Set<string>(SCOPES);

export const isScope = (value: string): value is Scope => KNOWN.has(value);

/** A space-separated scope string (RFC 6749 §3.3); undefined when any part is not a scope. */
export function parseScopes(text: string): Scope[] | undefined {
  const parts = text.split(' ').filter(Boolean);
  if (!parts.every(isScope)) return undefined;
  return SCOPES.filter((scope) => parts.includes(scope));
}

export const formatScopes = (scopes: readonly Scope[]): string => scopes.join(' ');

/**
 * What a route asks of a delegated token: one of these scopes, `any` (the caller's own identity),
 * or `session` (a wallet sign-in only — managing tokens and grants, the profile).
 */
export type ScopeRule = Scope | readonly Scope[] | 'any' | 'session';

/**
 * A delegated token without the scope a route needs: 403 naming it. `needed` is the scope that would
 * do (the first of a rule's alternatives), `held` what the token has: the route wrapper turns them
 * into the step-up challenge (docs/api.md#step-up).
 */
export class ScopeRefusal extends ApiError {
  constructor(
    readonly held: readonly Scope[],
    readonly needed: Scope,
    alternatives: readonly Scope[],
  ) {
    super(403, `Token lacks the ${alternatives.join(' or ')} scope`);
  }
}

/** Throws 403 naming the missing scope when `granted` (undefined: a wallet sign-in) does not allow `rule`. */
export function requireScope(granted: readonly Scope[] | undefined, rule: ScopeRule): void {
  if (granted === undefined || rule === 'any') return;
  if (rule === 'session') throw new ApiError(403, 'This needs a wallet sign-in; a delegated token cannot do it');
  const wanted = typeof rule === 'string' ? [rule] : rule;
  if (wanted.some((scope) => granted.includes(scope))) return;
  throw new ScopeRefusal(granted, wanted[0]!, wanted);
}

/** The scopes a route's rule names: what a 401's challenge adds to the least (none for `any` or `session`). */
export function scopesOfRule(rule: ScopeRule): Scope[] {
  if (rule === 'any' || rule === 'session') return [];
  return typeof rule === 'string' ? [rule] : [rule[0]!];
}
