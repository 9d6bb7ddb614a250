// Schemas shown under their own name in the document (and referenced wherever they appear): the
// shapes a reader meets under many operations.
import type { z } from 'zod';
import { agentStatsSchema, leaderboardEntrySchema } from '../agents/schemas';
import { passportResponse, userResponse } from '../auth/schemas';
import { statusCountsSchema } from '../enterprise/schemas';
import { missionSchema } from '../missions/schemas';

export const NAMED_SCHEMAS: [z.ZodType, string][] = [
  [missionSchema, 'Mission'],
  [userResponse, 'User'],
  [passportResponse, 'Passport'],
  [leaderboardEntrySchema, 'LeaderboardEntry'],
  [agentStatsSchema, 'AgentStats'],
  [statusCountsSchema, 'StatusCounts'],
];
