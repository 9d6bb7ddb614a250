// The shape of one entry of the route registry (routes.ts): what the OpenAPI document needs to know
// about an endpoint beyond its zod schemas — who may call it, its limits and its failure modes.
import type { z } from 'zod';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: nobody in particular (the default), anyone with an optional token, any signed-in
 * user, one role, or the operator with CRON_SECRET / ADMIN_TOKEN / METRICS_TOKEN.
 */
export type Access = 'public' | 'optional' | 'user' | 'CLIENT' | 'AGENT' | 'cron' | 'admin' | 'metrics';

/** A failure with a body other than `{ error, details? }` (health's 503 answers its report). */
export interface CustomError {
  status: number;
  description: string;
  schema: z.ZodType;
}

export interface ApiRoute {
  method: Method;
  /** The URL path with `{param}` segments, as in docs/api.md. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  access?: Access;
  /** Rate-limited: may answer 429 with Retry-After. */
  limited?: boolean;
  /** Path parameters' schemas; a `{param}` without one is a plain string. */
  params?: Record<string, z.ZodType>;
  query?: z.ZodObject;
  /** The JSON body. */
  body?: z.ZodType;
  /** The body is application/x-www-form-urlencoded (OAuth's endpoints), not JSON. */
  form?: boolean;
  /** The body may also be multipart/form-data: the JSON fields as form fields, files under `files`. */
  multipart?: boolean;
  /** Honours `Idempotency-Key` (docs/api.md#idempotency). */
  idempotent?: boolean;
  /** The success body; `file` for a download, `prometheus` for the metrics' text format. */
  response: z.ZodType | 'file' | 'prometheus';
  /** The success status (default 200). */
  status?: number;
  /** Failures beyond those the access, limit and schemas imply (400, 401, 403, 429, 500, 503). */
  errors?: (number | CustomError)[];
  /** Touches no database, KV or chain: never 503. */
  static?: boolean;
}
