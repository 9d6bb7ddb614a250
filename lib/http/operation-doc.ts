// What an endpoint says about itself in the OpenAPI document beyond what its route options already
// state: who may call, its limit, query, body and form come from those options, never from here.
import type { z } from 'zod';
import type { Handler } from './observed';

/** A failure with a body other than `{ error, details? }` (health's 503 answers its report). */
export interface CustomError {
  status: number;
  description: string;
  schema: z.ZodType;
}

export interface OperationDoc {
  tag: string;
  summary: string;
  /** Path parameters are a route option (`params`), validated by the wrapper; never stated here. */
  params?: never;
  description?: string;
  /**
   * The JSON body of a handler that reads it itself (after a precheck, or as multipart), and so
   * has no `body` option to take it from.
   */
  body?: z.ZodType;
  /** The body may also be multipart/form-data: the JSON fields as form fields, files under `files`. */
  multipart?: true;
  /** Honours `Idempotency-Key` (docs/api.md#idempotency). */
  idempotent?: true;
  /** The success body; `file` for a download, `prometheus` for the metrics' text format. */
  response: z.ZodType | 'file' | 'prometheus';
  /** The success status (default 200). */
  status?: number;
  /** Failures beyond those the access, limit and schemas imply (400, 401, 403, 429, 500, 503). */
  errors?: (number | CustomError)[];
  /** Touches no database, KV or chain: never 503. */
  static?: true;
}

/**
 * A handler built without route() (liveness: nothing between it and the answer), carrying its
 * description as route() handlers carry theirs: public, unlimited, without a body.
 */
export function documented(handler: Handler, doc: OperationDoc): Handler & { readonly options: { doc: OperationDoc } } {
  return Object.assign(handler, { options: { doc } });
}
