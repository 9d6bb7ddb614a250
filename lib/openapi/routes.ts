// The route registry: every endpoint of the API, one entry each, naming the zod schemas its route
// validates with and answers in (the same objects — never a copy). document.ts builds the OpenAPI
// document from it; tests/integration/openapi.test.ts fails when a route file under app/api has no
// entry here, or an entry has no route file. Adding an endpoint = adding its entry.
import { z } from 'zod';
import { addressSchema } from '../address';
import { accountStatsSchema, profilePatchSchema, profileSchema } from '../account/schemas';
import {
  agentProfileSchema,
  agentStatsSchema,
  leaderboardEntrySchema,
  leaderboardQuerySchema,
  leaderboardSchema,
  publicLeaderboardQuerySchema,
  publicLeaderboardSchema,
} from '../agents/schemas';
import {
  logoutResponse,
  meResponse,
  nonceRequest,
  nonceResponse,
  passportResponse,
  registerAgentResponse,
  userResponse,
  verifyRequest,
  verifyResponse,
} from '../auth/schemas';
import { analyticsQuerySchema, analyticsSchema, statusCountsSchema } from '../enterprise/schemas';
import {
  bumpSchema,
  contestSchema,
  createMissionSchema,
  idSchema,
  listQuerySchema,
  missionListSchema,
  missionSchema,
  resolveSchema,
  submitSchema,
} from '../missions/schemas';
import {
  applicationListSchema,
  applicationSchema,
  applySchema,
  assignSchema,
  commentListSchema,
  commentSchema,
  commentViewSchema,
  pageQuerySchema,
  reviewPatchSchema,
  reviewSchema,
  reviewViewSchema,
} from '../marketplace/schemas';
import { awardSchema, entryListSchema, entryQuerySchema, entrySchema, entryViewSchema } from '../bounties/schemas';
import { healthReportSchema } from '../operations/health';
import { createdWebhookSchema, createWebhookSchema, webhookDeliveryListSchema, webhookListSchema } from '../webhooks/schemas';
import { publicConfigSchema, publicStatsSchema } from '../public/schemas';
import { claimResponseSchema, earningsSchema, settlementSchema } from '../settlements/schemas';
import type { ApiRoute } from './types';

const missionId = { id: idSchema };
// Bodies the handlers build without a schema of their own elsewhere: described once, here.
const liveness = z.object({ ok: z.literal(true) });
const sweepReport = z.record(z.string(), z.unknown()).describe('What the sweep did, by kind of work');
const openApiDocument = z.record(z.string(), z.unknown()).describe('This OpenAPI 3.1 document');

export const API_ROUTES: ApiRoute[] = [
  // Auth (API.md §3)
  { method: 'post', path: '/api/auth/nonce', tag: 'Auth', summary: 'A one-time SIWE nonce for an address (5 min)', limited: true, body: nonceRequest, response: nonceResponse },
  {
    method: 'post', path: '/api/auth/verify', tag: 'Auth', summary: 'Sign in: verify a signed SIWE message → token + session cookie',
    description: 'Each SIWE failure has its own `error` text (nonce, signature, chain id, domain, expiry).',
    limited: true, body: verifyRequest, response: verifyResponse, errors: [401],
  },
  { method: 'post', path: '/api/auth/register-agent', tag: 'Auth', summary: 'Become an agent; mints the passport once', access: 'user', limited: true, response: registerAgentResponse },
  { method: 'get', path: '/api/auth/me', tag: 'Auth', summary: 'The signed-in user and their passport', access: 'user', response: meResponse },
  { method: 'post', path: '/api/auth/logout', tag: 'Auth', summary: 'Revoke the token and clear the cookie', access: 'user', limited: true, response: logoutResponse },

  // Missions (API.md §5)
  {
    method: 'get', path: '/api/missions', tag: 'Missions', summary: 'List missions: public OPEN board, or `mine=client|agent`',
    access: 'optional', query: listQuerySchema, response: missionListSchema,
  },
  {
    method: 'post', path: '/api/missions', tag: 'Missions', summary: 'Post a mission (JSON, or multipart with attachments)',
    access: 'CLIENT', limited: true, idempotent: true, body: createMissionSchema, multipart: true, response: missionSchema, status: 201, errors: [409, 413, 415, 422],
  },
  { method: 'get', path: '/api/missions/{id}', tag: 'Missions', summary: 'One mission as the caller may see it', access: 'optional', params: missionId, response: missionSchema, errors: [404] },
  {
    method: 'post', path: '/api/missions/{id}/accept', tag: 'Missions', summary: 'OPEN → ACCEPTED (one agent wins a race)',
    description: 'An agent holds at most MAX_ACTIVE_MISSIONS (3) missions in ACCEPTED, SUBMITTED or CONTESTED; one more is 409.',
    access: 'AGENT', limited: true, params: missionId, response: missionSchema, errors: [404, 409],
  },
  {
    method: 'post', path: '/api/missions/{id}/apply', tag: 'Marketplace', summary: 'Apply to an APPLICATION mission (AGENT; once per round, at most 50)',
    access: 'AGENT', limited: true, params: missionId, body: applySchema, response: applicationSchema, status: 201, errors: [403, 404, 409],
  },
  {
    method: 'get', path: '/api/missions/{id}/applications', tag: 'Marketplace', summary: "The current round's applications (the owner's), oldest first",
    access: 'user', params: missionId, query: pageQuerySchema, response: applicationListSchema, errors: [403, 404],
  },
  {
    method: 'post', path: '/api/missions/{id}/assign', tag: 'Marketplace', summary: 'OPEN → ACCEPTED for an agent who applied (the owner)',
    access: 'user', limited: true, params: missionId, body: assignSchema, response: missionSchema, errors: [403, 404, 409],
  },
  {
    method: 'post', path: '/api/missions/{id}/review', tag: 'Marketplace', summary: "Rate a COMPLETED mission's agent, once (the owner)",
    access: 'user', limited: true, params: missionId, body: reviewSchema, response: reviewViewSchema, status: 201, errors: [403, 404, 409],
  },
  {
    method: 'patch', path: '/api/missions/{id}/review', tag: 'Marketplace', summary: 'Edit the review within 24 hours of writing it',
    access: 'user', limited: true, params: missionId, body: reviewPatchSchema, response: reviewViewSchema, errors: [403, 404, 409],
  },
  {
    method: 'get', path: '/api/missions/{id}/comments', tag: 'Marketplace', summary: "Questions and answers: public while OPEN, the parties' afterwards",
    access: 'optional', params: missionId, query: pageQuerySchema, response: commentListSchema, errors: [403, 404],
  },
  {
    method: 'post', path: '/api/missions/{id}/comments', tag: 'Marketplace', summary: 'Ask or answer (10 a minute a user)',
    access: 'user', limited: true, params: missionId, body: commentSchema, response: commentViewSchema, status: 201, errors: [403, 404],
  },
  {
    method: 'get', path: '/api/admin/missions/{id}/comments', tag: 'Operations', summary: "A mission's conversation, for the operator",
    access: 'admin', params: missionId, query: pageQuerySchema, response: commentListSchema, errors: [404],
  },
  {
    method: 'post', path: '/api/admin/missions/{id}/comments', tag: 'Operations', summary: 'Write in a mission\'s conversation as the operator',
    access: 'admin', params: missionId, body: commentSchema, response: commentViewSchema, status: 201, errors: [404],
  },
  {
    method: 'post', path: '/api/missions/{id}/reopen', tag: 'Missions', summary: 'ACCEPTED → OPEN by the owner after ACCEPT_WINDOW_SECONDS without a submission',
    access: 'user', limited: true, params: missionId, response: missionSchema, errors: [403, 404, 409],
  },
  { method: 'post', path: '/api/missions/{id}/submit', tag: 'Missions', summary: 'Deliver: note and deliverable files → SUBMITTED', access: 'user', limited: true, params: missionId, body: submitSchema, multipart: true, response: missionSchema, errors: [404, 409, 413, 415] },
  { method: 'post', path: '/api/missions/{id}/approve', tag: 'Missions', summary: 'SUBMITTED → COMPLETED; the agent is credited', access: 'user', limited: true, params: missionId, response: missionSchema, errors: [404, 409] },
  { method: 'post', path: '/api/missions/{id}/contest', tag: 'Missions', summary: 'Refuse a delivery: reason and evidence → CONTESTED or DISPUTED', access: 'user', limited: true, params: missionId, body: contestSchema, multipart: true, response: missionSchema, errors: [404, 409, 413, 415] },
  { method: 'post', path: '/api/missions/{id}/cancel', tag: 'Missions', summary: 'The owner cancels; the assigned agent withdraws', access: 'user', limited: true, params: missionId, response: missionSchema, errors: [404, 409] },
  { method: 'post', path: '/api/missions/{id}/bump', tag: 'Missions', summary: 'Re-list an OPEN mission, optionally topping up the reward (once an hour)', access: 'user', limited: true, params: missionId, body: bumpSchema, response: missionSchema, errors: [404, 409] },
  // Bounties (API.md §18)
  {
    method: 'post', path: '/api/missions/{id}/entries', tag: 'Bounties', summary: 'Enter a BOUNTY (AGENT): note and files; once each, replaceable until the deadline',
    description: 'At most MAX_BOUNTY_ENTRIES (200) a bounty; ENTRY_RATE_LIMIT_PER_MINUTE (10) per agent. An entry is read by the client and its author only until the bounty is COMPLETED.',
    access: 'AGENT', limited: true, params: missionId, body: entrySchema, multipart: true, response: entryViewSchema, status: 201, errors: [403, 404, 409, 413, 415],
  },
  {
    method: 'get', path: '/api/missions/{id}/entries', tag: 'Bounties', summary: "A bounty's entries: all to the client (and every entrant once COMPLETED), its own to an entrant",
    access: 'user', params: missionId, query: entryQuerySchema, response: entryListSchema, errors: [404, 409],
  },
  {
    method: 'post', path: '/api/missions/{id}/award', tag: 'Bounties', summary: 'JUDGING → AWARDED: the winning entrants in place order, a reason for places left unawarded',
    description: 'Each entrant may then contest the award once (POST /api/missions/{id}/contest) within the review window → DISPUTED; otherwise COMPLETED and paid by releaseSplit.',
    access: 'user', limited: true, params: missionId, body: awardSchema, response: missionSchema, errors: [400, 403, 404, 409],
  },
  { method: 'get', path: '/api/missions/{id}/files/{fileId}', tag: 'Missions', summary: 'Download a mission file (attachment)', access: 'optional', params: { id: idSchema, fileId: idSchema }, response: 'file', errors: [404] },

  // Agents (API.md §6)
  { method: 'get', path: '/api/agents/leaderboard', tag: 'Agents', summary: 'Agents ranked by earned or completed in a period', query: leaderboardQuerySchema, response: leaderboardSchema },
  { method: 'get', path: '/api/agents/me/earnings', tag: 'Agents', summary: "The caller's earnings: pending, in flight, claimed, history", access: 'AGENT', response: earningsSchema },
  {
    method: 'post', path: '/api/agents/me/claim', tag: 'Agents', summary: 'Pay out all pending earnings on-chain (claimFor, gas paid by the operator)',
    description: 'One claim in flight per agent; nothing claimable is 409; without an escrow configured, 503.',
    access: 'AGENT', limited: true, idempotent: true, response: claimResponseSchema, errors: [409],
  },
  { method: 'get', path: '/api/agents/me/passport', tag: 'Agents', summary: "The caller's passport", access: 'AGENT', response: passportResponse, errors: [404] },
  { method: 'get', path: '/api/agents/{address}', tag: 'Agents', summary: "An agent's public profile (404 for non-agents)", params: { address: addressSchema }, response: agentProfileSchema, errors: [404] },

  // Enterprise and account (API.md §7)
  { method: 'get', path: '/api/enterprise/analytics', tag: 'Enterprise', summary: "Analytics of the caller's missions over a date range", access: 'CLIENT', query: analyticsQuerySchema, response: analyticsSchema },
  { method: 'get', path: '/api/account/profile', tag: 'Account', summary: "The caller's profile", access: 'user', response: profileSchema },
  { method: 'patch', path: '/api/account/profile', tag: 'Account', summary: 'Change profile fields (null or empty clears one)', access: 'user', limited: true, body: profilePatchSchema, response: profileSchema },
  { method: 'get', path: '/api/account/stats', tag: 'Account', summary: "The caller's counts as client and as agent", access: 'user', response: accountStatsSchema },

  // Public (API.md §8)
  { method: 'get', path: '/api/public/stats', tag: 'Public', summary: 'Marketplace totals (cached up to 30 s)', response: publicStatsSchema },
  { method: 'get', path: '/api/public/leaderboard', tag: 'Public', summary: 'The top 20 agents', query: publicLeaderboardQuerySchema, response: publicLeaderboardSchema },
  { method: 'get', path: '/api/public/config', tag: 'Public', summary: 'What the front end needs at runtime (no secrets)', response: publicConfigSchema },

  // Operations (API.md §9)
  {
    method: 'get', path: '/api/health', tag: 'Operations', summary: 'Dependencies: database, KV, chain',
    description: '`degraded` (still 200) while settlements wait as FAILED for the operator.',
    response: healthReportSchema, errors: [{ status: 503, description: 'The database or the KV is down', schema: healthReportSchema }],
  },
  { method: 'get', path: '/api/health/live', tag: 'Operations', summary: 'Liveness: answers without touching any dependency', response: liveness, static: true },
  { method: 'get', path: '/api/cron/sweep', tag: 'Operations', summary: 'Run the sweep (Vercel Cron)', access: 'cron', response: sweepReport, errors: [404] },
  { method: 'post', path: '/api/cron/sweep', tag: 'Operations', summary: 'Run the sweep', access: 'cron', response: sweepReport, errors: [404] },
  {
    method: 'post', path: '/api/admin/missions/{id}/resolve', tag: 'Operations', summary: 'Settle a DISPUTED mission (operator)',
    access: 'admin', params: missionId, body: resolveSchema, response: missionSchema, errors: [404, 409],
  },
  {
    method: 'post', path: '/api/admin/settlements/{id}/retry', tag: 'Operations', summary: 'Send a FAILED settlement again (operator)',
    description: 'A settlement that failed SETTLEMENT_MAX_ATTEMPTS times waits as FAILED (health: degraded). Reconciled from the chain first: never paid twice.',
    access: 'admin', params: { id: idSchema }, response: settlementSchema, errors: [404, 409],
  },
  // Webhooks (API.md §14)
  {
    method: 'post', path: '/api/webhooks', tag: 'Webhooks', summary: 'Add an endpoint; its signing secret is shown in this answer only',
    description: 'Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature (v1,<base64 HMAC-SHA256>). At most 10 endpoints a user.',
    access: 'user', limited: true, body: createWebhookSchema, response: createdWebhookSchema, status: 201, errors: [409],
  },
  { method: 'get', path: '/api/webhooks', tag: 'Webhooks', summary: "The caller's endpoints", access: 'user', response: webhookListSchema },
  {
    method: 'delete', path: '/api/webhooks/{id}', tag: 'Webhooks', summary: 'Remove an endpoint',
    access: 'user', limited: true, params: { id: idSchema }, response: logoutResponse, errors: [404],
  },
  {
    method: 'get', path: '/api/webhooks/{id}/deliveries', tag: 'Webhooks', summary: "An endpoint's deliveries, newest first",
    access: 'user', params: { id: idSchema }, query: pageQuerySchema, response: webhookDeliveryListSchema, errors: [404],
  },
  { method: 'get', path: '/api/openapi.json', tag: 'Operations', summary: 'This document', response: openApiDocument, static: true },
];

/** Schemas shown under their own name in the document (and referenced wherever they appear). */
export const NAMED_SCHEMAS: [z.ZodType, string][] = [
  [missionSchema, 'Mission'],
  [userResponse, 'User'],
  [passportResponse, 'Passport'],
  [leaderboardEntrySchema, 'LeaderboardEntry'],
  [agentStatsSchema, 'AgentStats'],
  [statusCountsSchema, 'StatusCounts'],
];
