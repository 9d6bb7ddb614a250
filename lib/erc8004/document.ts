// The feedback file behind a feedback's feedbackURI (docs/api.md#erc-8004-feedback): what the
// settlement rested on — the mission, its criteria and their hash, the operator's verdicts, the
// SHA-256 of each file the agent delivered, and the payout's transaction. Rendered once, when the
// payout is mined and the feedback is about to be given; its bytes are stored and served as they
// are, so their keccak256 (the on-chain feedbackHash) keeps matching.
import 'server-only';
import { and, asc, eq } from 'drizzle-orm';
import { type Hex, keccak256, stringToBytes } from 'viem';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missionFiles, missions, users } from '../db/schema';
import type { ReputationFeedback } from '../db/schema/erc8004';
import { issuerOf } from '../auth/resources';
import { registryId } from '../chain/erc8004';
import { FEEDBACK_TAG } from './outcomes';

/** Names this document's shape; a later shape gets a new name. */
export const FEEDBACK_DOCUMENT_TYPE = 'taskmarket-feedback-v1';

export interface Payout {
  kind: string;
  txHash: string | null;
}

/** The document's text (fixed key order, no whitespace) and its keccak256. */
export async function renderFeedbackDocument(
  db: Db,
  cfg: Config,
  row: ReputationFeedback,
  payout: Payout | undefined,
): Promise<{ text: string; hash: Hex }> {
  const [mission] = await db
    .select({
      id: missions.id,
      assignmentMode: missions.assignmentMode,
      assignment: missions.assignment,
      submissionCount: missions.submissionCount,
      criteria: missions.criteria,
      criteriaHash: missions.criteriaHash,
      verdicts: missions.verdicts,
    })
    .from(missions)
    .where(eq(missions.id, row.missionId))
    .limit(1);
  const [agent] = await db
    .select({ address: users.walletAddress })
    .from(users)
    .where(eq(users.id, row.userId))
    .limit(1);
  // What the agent delivered: its entry's files for a bounty, else the approved submission's.
  const files = await db
    .select({ sha256: missionFiles.sha256, size: missionFiles.size })
    .from(missionFiles)
    .where(
      mission!.assignmentMode === 'BOUNTY'
        ? and(
            eq(missionFiles.missionId, row.missionId),
            eq(missionFiles.kind, 'ENTRY'),
            eq(missionFiles.uploaderId, row.userId),
          )
        : and(
            eq(missionFiles.missionId, row.missionId),
            eq(missionFiles.kind, 'DELIVERABLE'),
            eq(missionFiles.assignment, mission!.assignment),
            eq(missionFiles.round, mission!.submissionCount),
          ),
    )
    .orderBy(asc(missionFiles.position));
  const document = {
    type: FEEDBACK_DOCUMENT_TYPE,
    missionId: row.missionId,
    mission: `${issuerOf(cfg)}/missions/${row.missionId}`,
    agent: agent!.address,
    agentId: row.agentId,
    agentRegistry: cfg.chain.identityRegistry ? registryId(cfg.chainId, cfg.chain.identityRegistry) : null,
    reputationRegistry: registryId(cfg.chainId, row.registry),
    value: row.value,
    valueDecimals: 0,
    tag1: FEEDBACK_TAG,
    tag2: row.outcome,
    criteria: mission!.criteria ?? [],
    criteriaHash: mission!.criteriaHash ?? null,
    verdicts: mission!.verdicts ?? [],
    deliverables: files.map((file) => ({ sha256: file.sha256, size: file.size })),
    settlement: payout ? { kind: payout.kind, chainId: cfg.chainId, txHash: payout.txHash } : null,
  };
  const text = JSON.stringify(document);
  return { text, hash: keccak256(stringToBytes(text)) };
}
