// The one error type the domain throws for callers, and the classification of failures of our
// dependencies (database, KV, chain) that become 503 instead of 500.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: string[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * An OAuth endpoint's refusal (RFC 6749 §5.2, RFC 7591 §3.2.2): answered `{ error: code,
 * error_description }`, the shape OAuth clients parse, instead of `{ error, details? }`.
 */
export class OAuthError extends ApiError {
  constructor(
    status: number,
    readonly code: string,
    description: string,
    headers?: Record<string, string>,
  ) {
    super(status, description, undefined, headers);
    this.name = 'OAuthError';
  }
}

// The KV and database clients live on globalThis (lib/kv, lib/db/client.ts), so the one that throws
// may have been opened by another bundle of this process — instrumentation.ts is compiled apart from
// the routes — whose copy of this class is not the route's. A registered symbol is the same in every
// bundle, so `instanceof` asks for it rather than for this copy's prototype.
const DEPENDENCY_DOWN = Symbol.for('taskmarket.DependencyDown');

/** A dependency we cannot reach right now; answered 503 with Retry-After, never 500. */
export class DependencyDown extends Error {
  readonly [DEPENDENCY_DOWN] = true;

  constructor(
    readonly dependency: 'database' | 'kv' | 'chain',
    cause?: unknown,
  ) {
    super(`${dependency} unavailable`, { cause });
    this.name = 'DependencyDown';
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && DEPENDENCY_DOWN in value;
  }
}

// Network-level failures (Node, postgres.js, ioredis) and PostgreSQL's "connection exception"
// (08xxx), shutdown (57P0x) and "too many connections" states: transient by nature. So is a
// statement cancelled (57014) by the statement timeout (lib/db/client.ts): the database did not
// answer in time, and nothing of the statement was kept.
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'NR_CLOSED',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
]);

function isTransient(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  if (error instanceof DependencyDown) return true;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string' && (TRANSIENT_CODES.has(code) || code.startsWith('08'))) return true;
  if (
    typeof message === 'string' &&
    /Connection is closed|Command timed out|ECONNREFUSED|write after end/.test(message)
  )
    return true;
  return isTransient(cause, depth + 1);
}

/** The dependency an error says is down, or undefined for any other error. */
export function unavailableDependency(error: unknown): DependencyDown['dependency'] | undefined {
  if (error instanceof DependencyDown) return error.dependency;
  return isTransient(error) ? 'database' : undefined;
}
