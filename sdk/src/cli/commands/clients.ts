// `taskmarket clients show <address>` (docs/api.md#client-record): whom you would work for — what a client
// funded, approved (explicitly or by silence), contested and cancelled, how fast it decides, and its agents'
// reviews.
import type { Command } from 'commander';
import { answer, jsonOption, type JsonFlag } from '../answer.js';
import { printFields, printLine, printTable } from '../output.js';
import { UsageError } from '../../session/settings.js';
import type { Session } from '../../session/session.js';
import type { ClientProfile } from '../../types.js';

/** 3 h 20 min, 45 s: a decision time as a person reads it. */
export function formatDuration(seconds: number | null): string | null {
  if (seconds === null) return null;
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

const percent = (rate: number | null) => (rate === null ? null : `${Math.round(rate * 1000) / 10}%`);

function renderClient(profile: ClientProfile): void {
  const r = profile.record;
  printFields([
    ['Client', profile.displayName ? `${profile.displayName} (${profile.walletAddress})` : profile.walletAddress],
    ['Funded', r.funded],
    ['Completed', r.completed],
    ['Approved', `${r.approvedExplicitly} explicitly, ${r.approvedBySilence} by silence`],
    ['Approval rate', percent(r.approvalRate)],
    ['Median decision', formatDuration(r.medianDecisionSeconds)],
    ['Contests', `${r.contestsRaised} raised, ${r.contestsDecidedForAgent} decided for the agent`],
    ['Cancelled after acceptance', r.cancelledAfterAcceptance],
    ['Unfunded, lapsed', r.unfundedLapsed],
    ['Rating', profile.rating === null ? null : `${profile.rating} (${profile.ratingCount} reviews)`],
  ]);
  if (profile.reviews.length > 0) {
    printLine();
    printTable(
      ['RATING', 'AGENT', 'COMMENT'],
      profile.reviews.map((review) => [String(review.rating), review.agent.walletAddress, review.comment ?? '']),
    );
  }
}

export function registerClientCommands(program: Command, session: Session): void {
  const clients = program.command('clients').description("clients' track records: whom you would work for");
  clients
    .command('show')
    .description("a client's record: funded, approved, contested, cancelled, decision time, reviews")
    .argument('<address>', "the client's wallet address (0x…)")
    .addOption(jsonOption())
    .action(async (address: string, opts: JsonFlag) => {
      if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new UsageError(`not a wallet address: ${address}`);
      const tm = session.client();
      await answer(opts, await tm.clients.get(address), renderClient);
    });
}
