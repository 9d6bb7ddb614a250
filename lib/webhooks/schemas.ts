// Request and response shapes of the webhook endpoints (docs/api.md#webhooks).
import { z } from 'zod';
import { categorySchema, tagSchema } from '../fields';

export const WEBHOOK_EVENTS = [
  'mission.created',
  'mission.accepted',
  'mission.submitted',
  'mission.contested',
  'mission.disputed',
  'mission.completed',
  'mission.cancelled',
  'mission.reopened',
  'earnings.released',
  'claim.paid',
  // docs/api.md#bounties: a new or replaced entry (to the client), a bounty closed for judging, and awarded (to its
  // entrants).
  'mission.entry_submitted',
  'mission.judging',
  'mission.awarded',
  // docs/api.md#post-and-pay: the poster's mission was funded on-chain and is on the board (to the poster).
  'mission.funded',
  // docs/api.md#confirmations: a delegated token's release waits for the person's yes (to the person).
  'confirmation.requested',
  // docs/api.md#milestones: a milestone approved and released, the mission going on to the next (to the parties).
  'mission.milestone_approved',
  // docs/api.md#settlement-offers: a party offered to settle in part, or the other party rejected it (to both).
  'settlement.offered',
  'settlement.rejected',
  // docs/api.md#offerings: an order of the agent's offering was funded (to the agent); docs/api.md#declining: the
  // named agent turned a DIRECT mission down (to both parties).
  'offering.ordered',
  'mission.declined',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const MAX_ENDPOINTS = 10;

export const createWebhookSchema = z.strictObject({
  url: z.string().max(2048).url(),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1)
    .max(WEBHOOK_EVENTS.length)
    .transform((events) => [...new Set(events)]),
  filter: z
    .strictObject({
      category: categorySchema.optional(),
      tag: tagSchema.optional(),
      minReward: z
        .string()
        .regex(/^[0-9]{1,78}$/, 'a decimal string of base units')
        .optional(),
    })
    .optional()
    .describe('mission.created only: category, tag and minimum reward the mission must match'),
});

export const webhookEndpointSchema = z.object({
  id: z.string().uuid(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  filter: z.object({ category: z.string().optional(), tag: z.string().optional(), minReward: z.string().optional() }),
  status: z.enum(['ACTIVE', 'FAILING', 'DISABLED']),
  createdAt: z.string(),
});
export const createdWebhookSchema = webhookEndpointSchema.extend({
  secret: z.string().describe('Shown once: verify webhook-signature with it (Standard Webhooks, whsec_…)'),
});
export const webhookListSchema = z.object({ items: z.array(webhookEndpointSchema) });

export const webhookDeliverySchema = z.object({
  id: z.string().uuid().describe('The webhook-id header'),
  event: z.enum(WEBHOOK_EVENTS),
  status: z.enum(['PENDING', 'DELIVERED', 'FAILED']),
  attempts: z.number().int(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export const webhookDeliveryListSchema = z.object({
  items: z.array(webhookDeliverySchema),
  nextCursor: z.string().nullable(),
});

export type WebhookEndpointView = z.infer<typeof webhookEndpointSchema>;
