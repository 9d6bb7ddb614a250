// docs/api.md#conventions: a method a route does not support answers 405 in the error shape with `Allow`,
// instead of Next's empty 405. Each route file exports these for the methods it lacks.
import { type Handler, observed } from './observed';
import { json } from './json-response';

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];

/** Handlers answering 405 for every method except `allowed`: `export const { PUT, … } = otherMethods('GET')`. */
export function otherMethods<const A extends readonly Method[]>(
  ...allowed: A
): Record<Exclude<Method, A[number]>, Handler> {
  // Next.js answers HEAD from GET and OPTIONS itself.
  const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
  const notAllowed: Handler = observed(async (request) =>
    json({ error: `Method ${request.method} not allowed` }, { status: 405, headers: { Allow: allow } }),
  );
  return Object.fromEntries(METHODS.filter((m) => !allowed.includes(m)).map((m) => [m, notAllowed])) as Record<
    Exclude<Method, A[number]>,
    Handler
  >;
}
