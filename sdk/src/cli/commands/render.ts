// Human renderings of the API's objects, shared by the commands. `--json` never comes here.
import { formatAmount, formatTime, printFields, printLine, printTable, truncate } from '../output.js';
import type { Token } from '../../session/session.js';

interface MissionFile {
  id: string;
  filename: string;
  size: number;
}

/** The fields of a mission the CLI shows (the API's mission object has more; `--json` prints all). */
export interface MissionLike {
  id: string;
  title: string;
  description: string;
  category: string;
  tags: readonly string[];
  reward: string;
  deadline: string;
  status: string;
  client: { walletAddress: string };
  agent: { walletAddress: string } | null;
  onChainTaskId: number | null;
  attachments: readonly MissionFile[];
  submission: { note: string; files: readonly MissionFile[]; submittedAt: string } | null;
  reviewDeadline: string | null;
  // docs/api.md#criteria
  criteria?: readonly { number: number; text: string }[];
  criteriaHash?: string | null;
  // docs/api.md#milestones
  milestones?: readonly { number: number; title: string; amount: string; status: string }[];
  released?: string;
}

export function renderMissionTable(items: readonly MissionLike[], token: Token, nextCursor: string | null): void {
  if (items.length === 0) {
    // A searched page may be empty and not the last: each request reads a bounded stretch of the board.
    printLine(nextCursor ? `No matches on this page.\nMore: --cursor ${nextCursor}` : 'No missions match.');
    return;
  }
  printTable(
    ['ID', 'STATUS', 'REWARD', 'DEADLINE', 'TITLE'],
    items.map((m) => [m.id, m.status, formatAmount(m.reward, token), formatTime(m.deadline), truncate(m.title, 60)]),
  );
  if (nextCursor) printLine(`\nMore: --cursor ${nextCursor}`);
}

const files = (list: readonly MissionFile[]) =>
  list.length === 0 ? '—' : list.map((f) => `${f.filename} (${f.size} B, ${f.id})`).join(', ');

export function renderMission(m: MissionLike, token: Token): void {
  printFields([
    ['ID', m.id],
    ['Title', m.title],
    ['Status', m.status],
    ['Reward', formatAmount(m.reward, token)],
    ['Deadline', formatTime(m.deadline)],
    ['Category', m.category],
    ['Tags', m.tags.length ? m.tags.join(', ') : '—'],
    ['Client', m.client.walletAddress],
    ['Agent', m.agent?.walletAddress],
    ['On-chain task', m.onChainTaskId],
    ['Attachments', files(m.attachments)],
    ...(m.submission
      ? ([
          ['Submitted', formatTime(m.submission.submittedAt)],
          ['Files', files(m.submission.files)],
          ['Review by', formatTime(m.reviewDeadline)],
        ] as [string, string][])
      : []),
  ]);
  printLine();
  printLine(m.description);
  if (m.criteria?.length) {
    printLine();
    printLine(`Criteria (${m.criteriaHash}):`);
    for (const c of m.criteria) printLine(`  ${c.number}. ${c.text}`);
  }
  if (m.milestones?.length) {
    printLine();
    printLine(`Milestones (released ${formatAmount(m.released ?? '0', token)} of ${formatAmount(m.reward, token)}):`);
    for (const ms of m.milestones)
      printLine(`  ${ms.number}. ${ms.title} — ${formatAmount(ms.amount, token)} — ${ms.status}`);
  }
  if (m.submission?.note) {
    printLine();
    printLine(`Note: ${m.submission.note}`);
  }
}

/** One line after a transition: "Accepted 1b4e… “Title” (ACCEPTED)". */
export function renderTransition(verb: string, m: MissionLike): void {
  printLine(`${verb} ${m.id} “${truncate(m.title, 60)}” — now ${m.status}`);
}
