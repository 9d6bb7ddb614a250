// Opaque pagination cursors (docs/api.md#pagination): a small JSON payload as base64url, so clients cannot
// rely on its shape. Each list validates the payload with its own schema; a tampered one is a 400.
import { z } from 'zod';
import { ApiError } from '../errors';

export function encodeCursorPayload(payload: unknown): string {
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

export function decodeCursorPayload<S extends z.ZodType>(cursor: string, schema: S): z.infer<S> {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const parsed = schema.safeParse(decoded);
  if (!parsed.success) throw new ApiError(400, 'Validation failed', ['cursor: malformed']);
  return parsed.data;
}

/**
 * The `cursor` query parameter of every list. Empty (`?cursor=`, what a client sends for a null
 * nextCursor) is the first page, the same as no cursor at all.
 */
export const cursorParam = z
  .string()
  .max(512)
  .transform((cursor) => cursor || undefined)
  .optional()
  .describe("The previous page's nextCursor; empty or absent for the first page");
