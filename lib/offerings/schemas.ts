// The request and response shapes of the offering endpoints (docs/api.md#offerings): validation, the
// TypeScript types and the OpenAPI document read them.
import { z } from 'zod';
import { addressSchema } from '../address';
import { categorySchema, tagSchema } from '../fields';
import { criteriaTextsSchema } from '../missions/criteria';
import { missionDescriptionSchema, missionSearchSchema, missionTitleSchema, tagsSchema } from '../missions/fields';
import { rewardSchema } from '../missions/schemas';
import { cursorParam } from '../paging/cursor';

/** docs/api.md#offerings: at most this many active offerings per agent, and open orders per offering. */
export const MAX_ACTIVE_OFFERINGS = 20;
export const MAX_OPEN_ORDERS = 20;
export const MAX_SLA_HOURS = 720;

const slaHoursSchema = z.number().int().min(1).max(MAX_SLA_HOURS);
const maxOpenOrdersSchema = z.number().int().min(1).max(MAX_OPEN_ORDERS);
const jsonSchemaValue = z
  .record(z.string(), z.unknown())
  .describe('A JSON Schema (draft 2020-12, ≤ 16 KB, no remote $ref) the requirements of an order must satisfy');

const offeringFields = {
  title: missionTitleSchema,
  description: missionDescriptionSchema,
  category: categorySchema.default('general'),
  tags: tagsSchema.prefault([]),
  price: rewardSchema.describe('USDC base units, a decimal string > 0'),
  slaHours: slaHoursSchema.describe('Hours from funding to the deadline, 1–720'),
  criteria: criteriaTextsSchema.optional().describe("Acceptance criteria every order's mission carries (1–20 lines)"),
  requirementsSchema: jsonSchemaValue.optional(),
  maxOpenOrders: maxOpenOrdersSchema.default(3).describe('Orders unfunded or in progress at once, 1–20 (default 3)'),
};

export const createOfferingSchema = z.strictObject(offeringFields);

export const updateOfferingSchema = z
  .strictObject({
    title: offeringFields.title.optional(),
    description: offeringFields.description.optional(),
    category: categorySchema.optional(),
    tags: tagsSchema.optional(),
    price: rewardSchema.optional(),
    slaHours: slaHoursSchema.optional(),
    criteria: criteriaTextsSchema.nullable().optional(),
    requirementsSchema: jsonSchemaValue.nullable().optional(),
    maxOpenOrders: maxOpenOrdersSchema.optional(),
    active: z.boolean().optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'name at least one field to change');

export const OFFERING_SORTS = ['price', 'rating', 'new'] as const;

export const offeringListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: cursorParam,
  q: missionSearchSchema.optional(),
  category: categorySchema.optional(),
  tag: tagSchema.optional(),
  maxPrice: z
    .string()
    .regex(/^[0-9]{1,78}$/, 'must be a string of decimal digits (base units)')
    .optional(),
  agent: addressSchema.optional(),
  sort: z.enum(OFFERING_SORTS).default('new'),
});

export const orderSchema = z.strictObject({
  requirements: z.unknown().optional().describe("What the offering's requirementsSchema asks for (≤ 64 KB)"),
  title: missionTitleSchema.optional().describe("The mission's title (default: the offering's)"),
  description: missionDescriptionSchema.optional().describe("The mission's description (default: the offering's)"),
});

export const offeringSchema = z.object({
  id: z.string(),
  agent: z.object({
    walletAddress: z.string(),
    rating: z.number().nullable(),
    settledCount: z.number().int(),
  }),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  price: z.string(),
  slaHours: z.number().int(),
  criteria: z.array(z.string()),
  requirementsSchema: z.record(z.string(), z.unknown()).nullable(),
  maxOpenOrders: z.number().int(),
  openOrders: z.number().int(),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const offeringResponseSchema = z.object({ offering: offeringSchema });
export const offeringListSchema = z.object({ items: z.array(offeringSchema), nextCursor: z.string().nullable() });

export type CreateOfferingInput = z.infer<typeof createOfferingSchema>;
export type UpdateOfferingInput = z.infer<typeof updateOfferingSchema>;
export type OfferingListQuery = z.infer<typeof offeringListQuerySchema>;
export type OrderInput = z.infer<typeof orderSchema>;
export type OfferingView = z.infer<typeof offeringSchema>;
