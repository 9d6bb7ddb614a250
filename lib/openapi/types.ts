// One operation as the document sees it: what its route's options say — who may call it, its limit,
// query, body and form — together with the description the options carry (OperationDoc).
import type { z } from 'zod';
import type { OperationDoc } from '../http/operation-doc';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: nobody in particular, anyone with an optional token, any signed-in user, one role,
 * or the operator with CRON_SECRET / ADMIN_TOKEN / METRICS_TOKEN.
 */
export type Access = 'public' | 'optional' | 'user' | 'CLIENT' | 'AGENT' | 'cron' | 'admin' | 'metrics';

export interface Operation extends Omit<OperationDoc, 'params'> {
  method: Method;
  /** The URL path with `{param}` segments, as in docs/api.md. */
  path: string;
  access: Access;
  /** Rate-limited: may answer 429 with Retry-After. */
  limited: boolean;
  /** A delegated token may lack the scope it needs: 403 with the step-up challenge (docs/api.md#step-up). */
  scoped: boolean;
  /** A present Origin must be allowed: 403 otherwise (docs/api.md#origins). */
  originChecked: boolean;
  /** Path parameters' schemas, from the route's `params`. */
  params?: Record<string, z.ZodType>;
  query?: z.ZodType;
  /** The body is application/x-www-form-urlencoded (OAuth's endpoints), not JSON. */
  form: boolean;
}
