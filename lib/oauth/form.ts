// OAuth's form bodies (application/x-www-form-urlencoded): a parameter given twice is refused
// (RFC 6749 §3.2), and every problem is an OAuth `invalid_request`, as OAuth clients parse it.
import { z } from 'zod';
import { OAuthError } from '../errors';
import { describeIssues } from '../fields';

/** The route's body schema: any form, checked by `parseForm` against the endpoint's own schema. */
export const formBody = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
export type FormBody = z.infer<typeof formBody>;

export function parseForm<S extends z.ZodType>(schema: S, form: FormBody): z.infer<S> {
  const repeated = Object.keys(form).find((key) => Array.isArray(form[key]));
  if (repeated) throw new OAuthError(400, 'invalid_request', `${repeated} given more than once`);
  const parsed = schema.safeParse(form);
  if (!parsed.success) throw new OAuthError(400, 'invalid_request', describeIssues(parsed.error).join('; '));
  return parsed.data;
}
