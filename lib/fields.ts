// Field rules several domains share: the ids of missions, files and settlements, and the category
// and tags a mission is labelled with (webhook filters match on them too).
import { z } from 'zod';

/** Mission and file ids: any UUID-shaped string; anything else is a 404, never a 500 (docs/api.md#conventions). */
export const idSchema = z.guid();

// Tags are comma-separated in multipart forms, so a tag can never hold a comma.
export const tagSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(32)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._+#-]*$/u, 'letters, digits, space and . _ + # - only');

export const categorySchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(50)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} _-]*$/u, 'letters, digits, space, _ and - only');
