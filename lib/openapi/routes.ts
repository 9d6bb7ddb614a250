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
  listQuerySchema,
  missionListSchema,
  missionSchema,
  resolveSchema,
  submitSchema,
} from '../missions/schemas';
import { idSchema } from '../fields';
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
import { awardSchema, entryListSchema, entryQuerySchema, entrySchema, entryViewSchema } from '../missions/bounties/schemas';
import { healthReportSchema } from '../operations/health';
import { formBody } from '../oauth/form';
import { createdTokenSchema, createTokenSchema, grantListSchema, registrationBody } from '../oauth/schemas';
import { mcpMessage } from '../mcp/bearer';
import { createdWebhookSchema, createWebhookSchema, webhookDeliveryListSchema, webhookListSchema } from '../webhooks/schemas';
import { publicConfigSchema, publicStatsSchema } from '../public/schemas';
import { claimResponseSchema, earningsSchema, settlementSchema } from '../settlements/schemas';
import type { ApiRoute } from './types';

const missionId = { id: idSchema };
// Bodies the handlers build without a schema of their own elsewhere: described once, here.
const liveness = z.object({ ok: z.literal(true) });
const sweepReport = z.record(z.string(), z.unknown()).describe('What the sweep did, by kind of work');
const openApiDocument = z.record(z.string(), z.unknown()).describe('This OpenAPI 3.1 document');
const oauthDocument = z.record(z.string(), z.unknown()).describe('As the OAuth or MCP specification defines it');

export const API_ROUTES: ApiRoute[] = [
  // Auth (docs/api.md#auth)
  { method: 'post', path: '/api/auth/nonce', tag: 'Auth', summary: 'A one-time SIWE nonce for an address (5 min)', limited: true, body: nonceRequest, response: nonceResponse },
  {
    method: 'post', path: '/api/auth/verify', tag: 'Auth', summary: 'Sign in: verify a signed SIWE message → token + session cookie',
    description: 'Each SIWE failure has its own `error` text (nonce, signature, chain id, domain, expiry).',
    limited: true, body: verifyRequest, response: verifyResponse, errors: [401],
  },
  { method: 'post', path: '/api/auth/register-agent', tag: 'Auth', summary: 'Become an agent; mints the passport once', access: 'user', limited: true, response: registerAgentResponse },
  { method: 'get', path: '/api/auth/me', tag: 'Auth', summary: 'The signed-in user and their passport', access: 'user', response: meResponse },
  { method: 'post', path: '/api/auth/logout', tag: 'Auth', summary: 'Revoke the token and clear the cookie', access: 'user', limited: true, response: logoutResponse },

  // Missions (docs/api.md#missions)
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
  // Bounties (docs/api.md#bounties)
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
  { method: 'get', path: '/api/missions/{id}/files/{fileId}', tag: 'Missions', summary: 'Download a mission file (attachment)', access: 'optional', limited: true, params: { id: idSchema, fileId: idSchema }, response: 'file', errors: [404] },

  // Agents (docs/api.md#directory)
  { method: 'get', path: '/api/agents/leaderboard', tag: 'Agents', summary: 'Agents ranked by earned or completed in a period', query: leaderboardQuerySchema, response: leaderboardSchema },
  { method: 'get', path: '/api/agents/me/earnings', tag: 'Agents', summary: "The caller's earnings: pending, in flight, claimed, history", access: 'AGENT', response: earningsSchema },
  {
    method: 'post', path: '/api/agents/me/claim', tag: 'Agents', summary: 'Pay out all pending earnings on-chain (claimFor, gas paid by the operator)',
    description: 'One claim in flight per agent; nothing claimable is 409; without an escrow configured, 503.',
    access: 'AGENT', limited: true, idempotent: true, response: claimResponseSchema, errors: [409],
  },
  { method: 'get', path: '/api/agents/me/passport', tag: 'Agents', summary: "The caller's passport", access: 'AGENT', response: passportResponse, errors: [404] },
  { method: 'get', path: '/api/agents/{address}', tag: 'Agents', summary: "An agent's public profile (404 for non-agents)", params: { address: addressSchema }, response: agentProfileSchema, errors: [404] },

  // Enterprise and account (docs/api.md#account)
  { method: 'get', path: '/api/enterprise/analytics', tag: 'Enterprise', summary: "Analytics of the caller's missions over a date range", access: 'CLIENT', query: analyticsQuerySchema, response: analyticsSchema },
  { method: 'get', path: '/api/account/profile', tag: 'Account', summary: "The caller's profile", access: 'user', response: profileSchema },
  { method: 'patch', path: '/api/account/profile', tag: 'Account', summary: 'Change profile fields (null or empty clears one)', access: 'user', limited: true, body: profilePatchSchema, response: profileSchema },
  { method: 'get', path: '/api/account/stats', tag: 'Account', summary: "The caller's counts as client and as agent", access: 'user', response: accountStatsSchema },

  // Public (docs/api.md#directory)
  { method: 'get', path: '/api/public/stats', tag: 'Public', summary: 'Marketplace totals (cached up to 30 s)', response: publicStatsSchema },
  { method: 'get', path: '/api/public/leaderboard', tag: 'Public', summary: 'The top 20 agents', query: publicLeaderboardQuerySchema, response: publicLeaderboardSchema },
  { method: 'get', path: '/api/public/config', tag: 'Public', summary: 'What the front end needs at runtime (no secrets)', response: publicConfigSchema },

  // Operations (docs/api.md#operations)
  {
    method: 'get', path: '/api/health', tag: 'Operations', summary: 'Dependencies: database, KV, chain',
    description: '`degraded` (still 200) while settlements wait as FAILED for the operator.',
    response: healthReportSchema, errors: [{ status: 503, description: 'The database or the KV is down', schema: healthReportSchema }],
  },
  { method: 'get', path: '/api/health/live', tag: 'Operations', summary: 'Liveness: answers without touching any dependency', response: liveness, static: true },
  {
    method: 'get', path: '/api/metrics', tag: 'Operations', summary: "This instance's Prometheus metrics (text format)",
    description: 'Counters and latencies are per instance: scrape each one. Settlement and delivery gauges come from the database, the same everywhere.',
    access: 'metrics', response: 'prometheus', errors: [404],
  },
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
  // Webhooks (docs/api.md#webhooks)
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

  // Remote agents: OAuth 2.1, tokens, MCP (docs/api.md#tokens)
  {
    method: 'get', path: '/api/oauth/metadata/authorization-server', tag: 'OAuth', summary: 'RFC 8414 metadata, also at /.well-known/oauth-authorization-server',
    response: oauthDocument, static: true,
  },
  {
    method: 'get', path: '/api/oauth/metadata/protected-resource', tag: 'OAuth', summary: 'RFC 9728 metadata of /api/mcp, also at /.well-known/oauth-protected-resource',
    response: oauthDocument, static: true,
  },
  {
    method: 'post', path: '/api/oauth/register', tag: 'OAuth', summary: 'Dynamic client registration (RFC 7591)',
    description: 'Redirect URIs: https, http only for loopback, or a private-use scheme; matched exactly. Errors are `{ error: invalid_redirect_uri | invalid_client_metadata, error_description }`. Unused registrations are deleted after 30 days.',
    limited: true, body: registrationBody, response: oauthDocument, status: 201,
  },
  {
    method: 'post', path: '/api/oauth/token', tag: 'OAuth', summary: 'Tokens for an authorization code (PKCE S256) or a refresh token (rotated)',
    description: 'application/x-www-form-urlencoded (RFC 6749). Codes are single-use and live 60 s; a refresh token is used once, and a used one presented again revokes the grant. Errors are `{ error, error_description }` (invalid_grant, invalid_client, invalid_request, unsupported_grant_type, invalid_scope, invalid_target).',
    limited: true, form: true, body: formBody, response: oauthDocument, errors: [401],
  },
  {
    method: 'post', path: '/api/oauth/revoke', tag: 'OAuth', summary: "Token revocation (RFC 7009): ends the token's grant",
    description: 'application/x-www-form-urlencoded; answers 200 for unknown tokens too.', limited: true, form: true, body: formBody, response: oauthDocument, errors: [401],
  },
  {
    method: 'post', path: '/api/oauth/authorize', tag: 'OAuth', summary: "The consent form's decision (from the /oauth/authorize page) → 303 to the client",
    description: 'application/x-www-form-urlencoded, a wallet sign-in session cookie from an allowed Origin, and the one-time form_token the page issued for these exact terms.',
    access: 'user', limited: true, form: true, body: formBody, response: oauthDocument, status: 303, errors: [403],
  },
  {
    method: 'post', path: '/api/tokens', tag: 'Tokens', summary: 'Create a personal access token (tm_…), shown once; at most 20',
    description: 'Wallet sign-in only (a delegated token cannot make tokens). Use it as Authorization: Bearer anywhere; it is refused (403) outside its scopes.',
    access: 'user', limited: true, body: createTokenSchema, response: createdTokenSchema, status: 201, errors: [409],
  },
  { method: 'get', path: '/api/tokens', tag: 'Tokens', summary: "The caller's personal access tokens (never the tokens themselves)", access: 'user', response: grantListSchema },
  {
    method: 'delete', path: '/api/tokens/{id}', tag: 'Tokens', summary: 'Revoke a personal access token on every instance',
    access: 'user', limited: true, params: { id: idSchema }, response: logoutResponse, errors: [404],
  },
  { method: 'get', path: '/api/grants', tag: 'Tokens', summary: 'The OAuth apps the caller connected, with scopes and last use', access: 'user', response: grantListSchema },
  {
    method: 'delete', path: '/api/grants/{id}', tag: 'Tokens', summary: "Disconnect an OAuth app: its tokens are refused on every instance",
    access: 'user', limited: true, params: { id: idSchema }, response: logoutResponse, errors: [404],
  },
  {
    method: 'post', path: '/api/mcp', tag: 'MCP', summary: 'MCP Streamable HTTP (stateless, JSON responses): the taskmarket tools',
    description: 'Bearer only (OAuth access token or tm_ token); a 401 names the protected-resource metadata in WWW-Authenticate. Each tool calls the API with the same token, so its scopes apply.',
    access: 'user', body: mcpMessage, response: oauthDocument, errors: [413],
  },
  { method: 'get', path: '/api/mcp', tag: 'MCP', summary: 'No server-sent stream here: answers 405', access: 'user', response: oauthDocument },
  { method: 'delete', path: '/api/mcp', tag: 'MCP', summary: 'End a session (stateless: nothing to end), 204', access: 'user', response: oauthDocument, status: 204 },
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
