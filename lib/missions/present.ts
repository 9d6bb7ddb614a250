// The mission object of API.md §5 as a viewer may see it: money as decimal strings, times as ISO
// strings, the submission and the contests only for the two parties (and the operator).
import type { MissionFileView, MissionView } from './schemas';
import type { FileMeta } from './files';
import type { MissionWithParties } from './queries';
import { canSeeWork, type Viewer } from './visibility';

export interface ContestRow {
  missionId: string;
  assignment: number;
  round: number;
  reason: string;
  createdAt: Date;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

function presentFile(file: FileMeta): MissionFileView {
  return { id: file.id, filename: file.filename, contentType: file.contentType, size: file.size, sha256: file.sha256 };
}

/** `files` and `contests` are this mission's own. */
export function presentMission(m: MissionWithParties, files: FileMeta[], contests: ContestRow[], viewer: Viewer): MissionView {
  const work = canSeeWork(m, viewer);
  // Only the current assignment's work: an agent who withdrew took their rounds with them.
  const current = (f: FileMeta) => f.assignment === m.assignment;
  const roundFiles = (kind: FileMeta['kind'], round: number) =>
    files.filter((f) => f.kind === kind && current(f) && f.round === round).map(presentFile);
  return {
    id: m.id,
    title: m.title,
    description: m.description,
    category: m.category,
    tags: m.tags,
    reward: m.reward,
    deadline: m.deadline.toISOString(),
    status: m.status,
    client: { walletAddress: m.clientWallet },
    agent: m.agentWallet ? { walletAddress: m.agentWallet } : null,
    onChainTaskId: m.onChainTaskId,
    attachments: files.filter((f) => f.kind === 'ATTACHMENT').map(presentFile),
    submission:
      work && m.submittedAt
        ? { note: m.submissionNote ?? '', files: roundFiles('DELIVERABLE', m.submissionCount), submittedAt: m.submittedAt.toISOString() }
        : null,
    contests: work
      ? contests
          .filter((c) => c.assignment === m.assignment)
          .sort((a, b) => a.round - b.round)
          .map((c) => ({ round: c.round, reason: c.reason, files: roundFiles('EVIDENCE', c.round), contestedAt: c.createdAt.toISOString() }))
      : [],
    reviewDeadline: iso(m.reviewDeadline),
    bumpCount: m.bumpCount,
    bumpedAt: iso(m.bumpedAt),
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
    acceptedAt: iso(m.acceptedAt),
    submittedAt: iso(m.submittedAt),
    completedAt: iso(m.completedAt),
    cancelledAt: iso(m.cancelledAt),
  };
}
