// Request and response shapes of /api/tokens and /api/grants, and of the OAuth and MCP endpoints
// as far as this API shapes them (docs/api.md#tokens).
import { z } from 'zod';
import { CONTROLS_MESSAGE, NO_CONTROLS } from '../fields';
import { ApiError } from '../errors';
import { SCOPES } from './scopes';
import { fundingLimitSchema, releaseLimitSchema } from './release-limit';

const DAY = 86_400;

/** RFC 7591 client metadata: any JSON object here; registerClient checks it field by field. */
export const registrationBody = z.record(z.string(), z.unknown()).describe('RFC 7591 client metadata');

/** An answer the OAuth or MCP specification shapes, not this API: documented by reference to it. */
export const protocolDocumentSchema = z
  .record(z.string(), z.unknown())
  .describe('As the OAuth or MCP specification defines it');

/** RFC 6749 §5.2's error body, which OAuth clients read; the wrapper's own refusals keep `{ error, details? }`. */
export const oauthErrorSchema = z
  .looseObject({ error: z.string(), error_description: z.string().optional() })
  .describe('An OAuth error (RFC 6749 §5.2), or `{ error, details? }` when the request was refused before it was read');

export const createTokenSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(NO_CONTROLS, CONTROLS_MESSAGE)
    .describe('What the token is for, shown in Connected apps'),
  scopes: z
    .array(z.enum(SCOPES))
    .min(1)
    .max(SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'each scope once')
    .describe('What the token may do'),
  expiresIn: z
    .number()
    .int()
    .min(3600)
    .max(365 * DAY)
    .default(90 * DAY)
    .describe('Seconds until the token stops working: 1 hour to 365 days (default 90 days)'),
  releaseLimit: releaseLimitSchema.default('0'),
  fundingLimit: fundingLimitSchema.default('0'),
});

export const grantSchema = z.object({
  id: z.uuid(),
  kind: z.enum(['oauth', 'token']),
  name: z.string(),
  clientId: z.string().nullable(),
  scopes: z.array(z.string()),
  tokenHint: z.string().nullable().describe('The first characters of a personal access token, to recognise it'),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  releaseLimit: z
    .string()
    .describe(
      'Base units released at once over a rolling 24 h before the person must confirm (docs/api.md#confirmations)',
    ),
  releasedLast24h: z.string().optional().describe('Base units released at once in the last 24 h (in lists)'),
  fundingLimit: z
    .string()
    .describe(
      "Base units funded at once from the person's standing allowance over a rolling 24 h " +
        '(docs/api.md#standing-allowance)',
    ),
  fundedLast24h: z.string().optional().describe('Base units funded at once in the last 24 h (in lists)'),
});

export const createdTokenSchema = z.object({
  token: z.string().describe('Shown once: only its hash is stored'),
  grant: grantSchema,
});

export const grantListSchema = z.object({ items: z.array(grantSchema) });

/** A grant or token id from the path: not a UUID is simply not one of yours (404). */
export function grantIdParams(params: Record<string, string>): { id: string } {
  const id = z.uuid().safeParse(params.id);
  if (!id.success) throw new ApiError(404, 'Not found');
  return { id: id.data };
}
