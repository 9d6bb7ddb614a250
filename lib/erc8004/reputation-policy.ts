// /.well-known/taskmarket-reputation.json (docs/api.md#client-feedback): what an ERC-8004 reader needs to
// pick our escrow-backed feedback out of a Reputation registry — the operator address that gives it
// (getSummary's clientAddresses), the tags it files it under and the value of each outcome, and where each
// feedback's file is. Public, derived from the configuration and the outcome tables, never stored.
import 'server-only';
import { z } from 'zod';
import type { Config } from '../config';
import { issuerOf } from '../auth/resources';
import { getChainClients } from '../chain/clients';
import { registryId } from '../chain/erc8004';
import { CLIENT_FEEDBACK_TAG, CLIENT_OUTCOME_VALUES, FEEDBACK_TAG, OUTCOME_VALUES } from './outcomes';

const tagSchema = z.strictObject({
  tag1: z.string(),
  outcomes: z.record(z.string(), z.number().int()).describe('tag2 → value (valueDecimals 0)'),
});

export const reputationPolicySchema = z.strictObject({
  type: z.literal('taskmarket-reputation-v1'),
  operator: z.string().nullable().describe('The address that gives our feedback; null when no operator key is set'),
  identityRegistry: z.string().nullable(),
  reputationRegistry: z.string().nullable(),
  tags: z.strictObject({ agent: tagSchema, client: tagSchema }),
  feedbackFile: z.string().describe('Each feedback’s feedbackURI is a file of this form'),
  minReward: z.string().describe('docs/api.md#feedback-bounds: no feedback for a reward below this (base units)'),
  pairWindowHours: z.number().int(),
  budgetPerHour: z.number().int(),
});

export type ReputationPolicy = z.infer<typeof reputationPolicySchema>;

export function reputationPolicy(cfg: Config): ReputationPolicy {
  const operator = getChainClients()?.operator?.account?.address;
  const { identityRegistry, reputationRegistry } = cfg.chain;
  return {
    type: 'taskmarket-reputation-v1',
    operator: operator ? operator.toLowerCase() : null,
    identityRegistry: identityRegistry ? registryId(cfg.chainId, identityRegistry) : null,
    reputationRegistry: reputationRegistry ? registryId(cfg.chainId, reputationRegistry) : null,
    tags: {
      agent: { tag1: FEEDBACK_TAG, outcomes: { ...OUTCOME_VALUES } },
      client: { tag1: CLIENT_FEEDBACK_TAG, outcomes: { ...CLIENT_OUTCOME_VALUES } },
    },
    feedbackFile: `${issuerOf(cfg)}/api/missions/{missionId}/feedback.json`,
    minReward: cfg.chain.minFeedbackReward.toString(),
    pairWindowHours: 24,
    budgetPerHour: cfg.chain.feedbackBudgetPerHour,
  };
}
