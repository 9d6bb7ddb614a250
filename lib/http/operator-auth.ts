// Operator endpoints (cron sweep, admin) are authorized by a shared secret from the environment.
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from './errors';

/** Requires `Authorization: Bearer <secret>`; an unset secret means the operation is disabled (404). */
export function requireOperatorSecret(request: Request, secret: string | undefined): void {
  if (!secret) throw new ApiError(404, 'Not found');
  const presented = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
  const a = Buffer.from(presented);
  const b = Buffer.from(secret);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw new ApiError(401, 'Invalid operator credentials');
}
