// Schemas shown under their own name in the document (and referenced wherever they appear): the
// shapes a reader meets under many operations.
import type { z } from 'zod';
import { agentStatsSchema, leaderboardEntrySchema } from '../agents/schemas';
import { logoutResponse, passportResponse, userResponse } from '../auth/schemas';
import { commentListSchema, commentSchema, commentViewSchema } from '../marketplace';
import { formBody } from '../oauth/form';
import { createdTokenSchema, grantListSchema, protocolDocumentSchema } from '../oauth/schemas';
import { statusCountsSchema } from '../enterprise/schemas';
import { missionSchema, nextActionSchema } from '../missions/schemas';
import { offeringSchema } from '../offerings/schemas';

export const NAMED_SCHEMAS: [z.ZodType, string][] = [
  [missionSchema, 'Mission'],
  [nextActionSchema, 'NextAction'],
  [userResponse, 'User'],
  [passportResponse, 'Passport'],
  [leaderboardEntrySchema, 'LeaderboardEntry'],
  [agentStatsSchema, 'AgentStats'],
  [statusCountsSchema, 'StatusCounts'],
  [offeringSchema, 'Offering'],
];

/**
 * Shared schemas under the names the SDK has always exported them by. A schema keeps the first name it is
 * given, and the route table is walked in path order (it is generated from app/api): without these, a new
 * route sorting first would rename a type the SDK's users import (the admin's comments renaming the
 * board's, `GET /api/grants` taking `TokensResponse`'s place).
 */
export const PINNED_OUTPUTS: [z.ZodType, string][] = [
  [logoutResponse, 'AuthLogoutResponse'],
  [grantListSchema, 'TokensResponse'],
  [createdTokenSchema, 'TokensPostResponse'],
  [protocolDocumentSchema, 'OauthMetadataAuthorizationServerResponse'],
  [commentListSchema, 'MissionsByIdCommentsResponse'],
  [commentViewSchema, 'MissionsByIdCommentsPostResponse'],
];

export const PINNED_INPUTS: [z.ZodType, string][] = [
  [commentSchema, 'MissionsByIdCommentsBody'],
  [formBody, 'OauthTokenBody'],
];
