// The feedback file behind a feedback's feedbackURI (docs/api.md#erc-8004-feedback): what the
// settlement rested on — the mission, its criteria and their hash, the operator's verdicts, the
// SHA-256 of each file the agent delivered, the payout's transaction, the reward it paid and a
// pseudonym of the client who paid it (docs/api.md#feedback-bounds). Rendered once, when the
// payout is mined and the feedback is about to be given; its bytes are stored and served as they
// are, so their keccak256 (the on-chain feedbackHash) keeps matching.
import 'server-only';
import { createHmac } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { type Hex, keccak256, stringToBytes } from 'viem';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { bountyEntries, missionFiles, missions, users } from '../db/schema';
import type { ReputationFeedback } from '../db/schema/erc8004';
import { issuerOf } from '../auth/resources';
import { registryId } from '../chain/erc8004';
import { CLIENT_FEEDBACK_TAG, FEEDBACK_TAG } from './outcomes';

/** Names this document's shape; a later shape gets a new name. */
export const FEEDBACK_DOCUMENT_TYPE = 'taskmarket-feedback-v3';

/**
 * docs/api.md#feedback-bounds: the client as the feedback file names it — an HMAC-SHA256 of its user id under
 * a key derived from SESSION_SECRET, 32 hex digits. The same for every file of one client (a reader sees
 * who gives an agent its feedback, and how often), and never its wallet: without our secret nobody can
 * tell whose it is, or check a guess.
 */
export function clientPseudonym(cfg: Config, clientId: string): string {
  const key = createHmac('sha256', cfg.sessionSecret).update('taskmarket erc8004 client pseudonym').digest();
  return createHmac('sha256', key).update(clientId).digest('hex').slice(0, 32);
}

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
      clientId: missions.clientId,
      agentId: missions.agentId,
      reward: missions.reward,
      assignmentMode: missions.assignmentMode,
      assignment: missions.assignment,
      submissionCount: missions.submissionCount,
      criteria: missions.criteria,
      criteriaHash: missions.criteriaHash,
      verdicts: missions.verdicts,
      submissionChecks: missions.submissionChecks,
    })
    .from(missions)
    .where(eq(missions.id, row.missionId))
    .limit(1);
  if (row.subject === 'client') return renderClientDocument(db, cfg, row, mission!, payout);
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
    // What the agent was paid (base units of the reward token) and by whom, under a pseudonym.
    reward: { amount: row.reward ?? mission!.reward, token: cfg.chain.rewardToken ?? null },
    client: clientPseudonym(cfg, mission!.clientId),
    tag1: FEEDBACK_TAG,
    tag2: row.outcome,
    criteria: mission!.criteria ?? [],
    criteriaHash: mission!.criteriaHash ?? null,
    verdicts: mission!.verdicts ?? [],
    deliverables: files.map((file) => ({ sha256: file.sha256, size: file.size })),
    settlement: payout ? { kind: payout.kind, chainId: cfg.chainId, txHash: payout.txHash } : null,
    // docs/api.md#checked-criteria: what the machine found of the delivery the settlement rested on.
    checks: (mission!.assignmentMode === 'BOUNTY' ? await entryChecks(db, row) : mission!.submissionChecks) ?? [],
  };
  const text = JSON.stringify(document);
  return { text, hash: keccak256(stringToBytes(text)) };
}

/** A bounty winner's file: the checks of the entry it won with. */
async function entryChecks(db: Db, row: ReputationFeedback) {
  const [entry] = await db
    .select({ checks: bountyEntries.checks })
    .from(bountyEntries)
    .where(and(eq(bountyEntries.missionId, row.missionId), eq(bountyEntries.agentId, row.userId)));
  return entry?.checks ?? null;
}

/** Names the client file's shape (docs/api.md#client-feedback). */
export const CLIENT_FEEDBACK_DOCUMENT_TYPE = 'taskmarket-client-feedback-v1';

/**
 * docs/api.md#client-feedback: the file of what the settlement said of its client — the client by its wallet
 * (its identity is public: it linked it), the agent by pseudonym, the reward, the outcome, the payout.
 */
async function renderClientDocument(
  db: Db,
  cfg: Config,
  row: ReputationFeedback,
  mission: { id: string; clientId: string; agentId: string | null; reward: string },
  payout: Payout | undefined,
): Promise<{ text: string; hash: Hex }> {
  const [client] = await db
    .select({ address: users.walletAddress })
    .from(users)
    .where(eq(users.id, row.userId))
    .limit(1);
  const document = {
    type: CLIENT_FEEDBACK_DOCUMENT_TYPE,
    missionId: row.missionId,
    mission: `${issuerOf(cfg)}/missions/${row.missionId}`,
    client: client!.address,
    agentId: row.agentId,
    agentRegistry: cfg.chain.identityRegistry ? registryId(cfg.chainId, cfg.chain.identityRegistry) : null,
    reputationRegistry: registryId(cfg.chainId, row.registry),
    value: row.value,
    valueDecimals: 0,
    reward: { amount: row.reward ?? mission.reward, token: cfg.chain.rewardToken ?? null },
    agent: clientPseudonym(cfg, mission.agentId ?? ''),
    tag1: CLIENT_FEEDBACK_TAG,
    tag2: row.outcome,
    settlement: payout ? { kind: payout.kind, chainId: cfg.chainId, txHash: payout.txHash } : null,
  };
  const text = JSON.stringify(document);
  return { text, hash: keccak256(stringToBytes(text)) };
}
