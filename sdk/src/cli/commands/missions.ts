// The mission commands (docs/api.md#missions, docs/api.md#webhooks, docs/api.md#bounties): missions list|show|download,
// post, accept, submit, approve, contest, and a bounty's enter and award.
import { Option, type Command } from 'commander';
import { answer, jsonOption as json, type JsonFlag } from '../answer.js';
import { TaskmarketError } from '../../index.js';
import {
  collect,
  parseAmount,
  parseDeadline,
  parseLimit,
  parseReward,
  parseSelfCheck,
  parseTaskId,
  parseUnmet,
} from '../parse.js';
import type { Session } from '../../session/session.js';
import { registerFileCommands } from './files.js';
import { renderMission, renderMissionTable, renderTransition, type MissionLike } from './render.js';
import { printLine } from '../output.js';

interface ListFlags {
  status?: string;
  category?: string;
  tag?: string;
  minReward?: string;
  q?: string;
  sort?: string;
  mine?: string;
  limit?: number;
  cursor?: string;
}

interface PostFlags {
  title: string;
  description: string;
  reward: string;
  deadline: string;
  category?: string;
  tag?: string[];
  assignment?: string;
  winners?: string;
  split?: string;
  file?: string[];
  taskId?: string;
  fromWallet?: boolean;
  criterion?: string[];
  milestone?: string[];
}

/** docs/api.md#milestones: `--milestone <amount:title>` flags, amounts as --reward takes them. */
function milestonesOf(flags: readonly string[] | undefined, token: Parameters<typeof parseReward>[1]) {
  if (!flags) return {};
  return {
    milestones: flags.map((flag) => {
      const at = flag.indexOf(':');
      if (at < 1) throw new Error(`--milestone ${flag}: expected <amount:title>, e.g. 10USDC:Design mockups`);
      return { amount: parseReward(flag.slice(0, at), token), title: flag.slice(at + 1).trim() };
    }),
  };
}

/** docs/api.md#milestones: `--milestone <n>` naming the milestone at hand. */
const milestoneNumber = (flag: string | undefined) => (flag === undefined ? {} : { milestone: Number(flag) });

/** docs/api.md#criteria: repeatable `--self-check` flags as the API's list. */
const selfCheckOf = (flags: string[] | undefined) => (flags ? { selfCheck: flags.map(parseSelfCheck) } : {});

export function registerMissionCommands(program: Command, session: Session): void {
  const missions = program
    .command('missions')
    .description("read missions: list the board or your own, show one, download a mission's file");

  missions
    .command('list')
    .description('list missions (the OPEN board by default; --mine for yours)')
    .option('--status <list>', 'comma-separated statuses, e.g. OPEN,ACCEPTED')
    .option('--category <name>', 'only this category')
    .option('--tag <tag>', 'only missions with this tag')
    .option('--min-reward <amount>', 'at least this reward (base units, or e.g. 10USDC)')
    .option('--q <text>', 'search title and description')
    .addOption(new Option('--sort <order>', 'sort order').choices(['bumped', 'reward', 'deadline', 'created']))
    .addOption(
      new Option('--mine <side>', 'your missions as client or as agent (signs in)').choices(['client', 'agent']),
    )
    .option('--limit <n>', 'page size, 1–100 (default 20)', parseLimit)
    .option('--cursor <cursor>', "the previous page's nextCursor")
    .addOption(json())
    .action(async (opts: JsonFlag & ListFlags) => {
      const tm = session.client({ signed: opts.mine !== undefined });
      const minReward =
        opts.minReward === undefined ? undefined : parseAmount('--min-reward', opts.minReward, await session.token());
      const query = Object.fromEntries(
        Object.entries({
          status: opts.status,
          category: opts.category,
          tag: opts.tag,
          minReward,
          q: opts.q,
          sort: opts.sort,
          mine: opts.mine,
          limit: opts.limit,
          cursor: opts.cursor,
        }).filter(([, value]) => value !== undefined),
      );
      // One page, exactly as the API answers it ({ items, nextCursor }).
      const page = await tm.missions.list(query as Parameters<typeof tm.missions.list>[0]);
      await answer(opts, page, async (p) =>
        renderMissionTable(p.items as MissionLike[], await session.token(), p.nextCursor),
      );
    });

  missions
    .command('show')
    .description('show one mission')
    .argument('<id>', 'mission id')
    .addOption(json())
    .action(async (id: string, opts: JsonFlag) => {
      // Signed in when a key is set: missions past OPEN are visible to their parties only.
      const tm = session.client();
      const mission = await tm.missions.get(id);
      await answer(opts, mission, async (m) => renderMission(m as MissionLike, await session.token()));
    });

  registerFileCommands(missions, session);

  program
    .command('post')
    .description('post the mission and fund its reward with one signature the server relays (no ETH needed)')
    .requiredOption('--title <text>', 'title (1–200 characters)')
    .requiredOption('--description <text>', 'what to deliver (1–10,000 characters)')
    .requiredOption('--reward <amount>', 'reward in base units (25000000 = 25 USDC) or with the symbol (25USDC)')
    .requiredOption('--deadline <when>', 'ISO date-time, or a duration from now: 12h, 7d, 2w')
    .option('--category <name>', 'category (default general)')
    .option('--tag <tag>', 'a tag (repeatable, at most 10)', collect)
    .addOption(
      new Option(
        '--assignment <mode>',
        'FIRST_COME (accept), APPLICATION (apply, you assign) or BOUNTY (many enter, you award)',
      ).choices(['FIRST_COME', 'APPLICATION', 'BOUNTY']),
    )
    .option('--winners <n>', 'BOUNTY: places to award, 1–10 (default 1)')
    .option(
      '--split <percentages>',
      "BOUNTY: each place's share of the reward, comma-separated, summing to 100 (default equal), e.g. 60,30,10",
    )
    .option('--file <path>', 'an attachment (repeatable, at most 10, 10 MB each)', collect)
    .option(
      '--criterion <text>',
      'an acceptance criterion, numbered from 1 in order (repeatable, 1–20, 500 characters each)',
      collect,
    )
    .option(
      '--milestone <amount:title>',
      'a milestone, in order (repeatable, 2–10, amounts summing to the reward), e.g. 10USDC:Design mockups',
      collect,
    )
    .option(
      '--task-id <n>',
      'an escrow task you funded already (e.g. by a post that failed after funding): post with it, pay nothing',
    )
    .option(
      '--from-wallet',
      'fund from your own wallet instead (approve + createTask, paying the gas); needs TASKMARKET_RPC_URL',
    )
    .addOption(json())
    .action(async (opts: JsonFlag & PostFlags) => {
      const funded = opts.taskId !== undefined;
      const tm = session.client({ signed: true, chain: !funded && opts.fromWallet === true });
      const body = {
        title: opts.title,
        description: opts.description,
        reward: parseReward(opts.reward, await session.token()),
        deadline: parseDeadline(opts.deadline),
        ...(opts.category !== undefined && { category: opts.category }),
        ...(opts.tag !== undefined && { tags: opts.tag }),
        ...(opts.assignment !== undefined && { assignment: opts.assignment }),
        ...(opts.winners !== undefined && { winners: Number(opts.winners) }),
        ...(opts.split !== undefined && { split: opts.split.split(',').map((p) => Number(p.trim())) }),
        ...(opts.criterion !== undefined && { criteria: opts.criterion }),
        ...milestonesOf(opts.milestone, await session.token()),
      };
      const files = opts.file ? { files: opts.file } : {};
      const mission = funded
        ? await tm.missions.create(
            { ...body, onChainTaskId: parseTaskId(opts.taskId!) } as Parameters<typeof tm.missions.create>[0],
            files,
          )
        : await tm
            .fundAndCreateMission(body as Parameters<typeof tm.fundAndCreateMission>[0], {
              ...files,
              fundFrom: opts.fromWallet ? 'wallet' : 'signature',
            })
            .catch((error: unknown) => {
              // The reward is escrowed but the mission was refused: say how to post without paying again.
              if (error instanceof TaskmarketError && error.onChainTaskId !== undefined) {
                throw new TaskmarketError({
                  status: error.status,
                  error: error.error,
                  details: [
                    ...(error.details ?? []),
                    `the reward is escrowed in task ${error.onChainTaskId}: fix the mission and run post ` +
                      `again with --task-id ${error.onChainTaskId}`,
                  ],
                });
              }
              throw error;
            });
      await answer(opts, mission, (m) => renderTransition('Posted', m as MissionLike));
    });

  program
    .command('accept')
    .description('take an OPEN mission (agents)')
    .argument('<id>', 'mission id')
    .addOption(json())
    .action(async (id: string, opts: JsonFlag) => {
      const mission = await session.client({ signed: true }).missions.accept(id);
      await answer(opts, mission, (m) => renderTransition('Accepted', m as MissionLike));
    });

  program
    .command('approve')
    .description('approve a delivery: the agent is paid (the owner); a milestone mission: the milestone at hand')
    .argument('<id>', 'mission id')
    .option('--milestone <n>', 'the milestone approved (a milestone mission: the one at hand)')
    .addOption(json())
    .action(async (id: string, opts: JsonFlag & { milestone?: string }) => {
      const mission = await session.client({ signed: true }).missions.approve(id, milestoneNumber(opts.milestone));
      await answer(opts, mission, (m) => renderTransition('Approved', m as MissionLike));
    });

  program
    .command('submit')
    .description('deliver: a note and files (the assigned agent)')
    .argument('<id>', 'mission id')
    .option('--note <text>', 'a note for the client', '')
    .option('--milestone <n>', 'the milestone delivered (a milestone mission: the one at hand)')
    .option('--file <path>', 'a deliverable (repeatable, at most 10, 10 MB each)', collect)
    .option(
      '--self-check <n:met|unmet[:note]>',
      'your check of criterion n, e.g. 2:met or "3:unmet:why" (repeatable)',
      collect,
    )
    .addOption(json())
    .action(
      async (
        id: string,
        opts: JsonFlag & { note: string; file?: string[]; selfCheck?: string[]; milestone?: string },
      ) => {
        const tm = session.client({ signed: true });
        const mission = await tm.missions.submit(id, {
          ...milestoneNumber(opts.milestone),
          note: opts.note,
          ...selfCheckOf(opts.selfCheck),
          ...(opts.file && { files: opts.file }),
        });
        await answer(opts, mission, (m) => renderTransition('Submitted', m as MissionLike));
      },
    );

  program
    .command('contest')
    .description('refuse a delivery, with a reason and optional evidence (the owner)')
    .argument('<id>', 'mission id')
    .requiredOption('--reason <text>', 'what is wrong (1–2,000 characters)')
    .option('--file <path>', 'evidence (repeatable)', collect)
    .option('--milestone <n>', 'the milestone contested (a milestone mission: the one at hand)')
    .option(
      '--unmet <n:reason>',
      'a criterion not met and why, e.g. "2:not COCO JSON" (repeatable; required when the mission has criteria)',
      collect,
    )
    .addOption(json())
    .action(
      async (
        id: string,
        opts: JsonFlag & { reason: string; file?: string[]; unmet?: string[]; milestone?: string },
      ) => {
        const tm = session.client({ signed: true });
        const unmet = opts.unmet ? { unmet: opts.unmet.map(parseUnmet) } : {};
        const mission = await tm.missions.contest(id, {
          ...milestoneNumber(opts.milestone),
          reason: opts.reason,
          ...unmet,
          ...(opts.file && { files: opts.file }),
        });
        await answer(opts, mission, (m) => renderTransition('Contested', m as MissionLike));
      },
    );

  // docs/api.md#settlement-offers
  program
    .command('offer')
    .description('offer to settle in part: <agentAmount> base units to the agent, the rest refunded (either party)')
    .argument('<id>', 'mission id')
    .argument('<agentAmount>', 'base units to the agent, before the fee (0 to the reward)')
    .option('--note <text>', 'why (up to 2,000 characters)')
    .addOption(json())
    .action(async (id: string, agentAmount: string, opts: JsonFlag & { note?: string }) => {
      const tm = session.client({ signed: true });
      const made = await tm.missions.offerSettlement(id, { agentAmount, ...(opts.note && { note: opts.note }) });
      await answer(opts, made, (m) => {
        const { offer } = m as { offer: { id: string; agentAmount: string; refund: string; expiresAt: string } };
        printLine(
          `Offered ${offer.agentAmount} to the agent, ${offer.refund} back ` +
            `(offer ${offer.id}, lapses ${offer.expiresAt})`,
        );
      });
    });

  program
    .command('answer-offer')
    .description("accept or reject the other party's pending settlement offer")
    .argument('<id>', 'mission id')
    .argument('<offerId>', "the offer's id (settlementOffer.id)")
    .argument('<decision>', 'accept or reject')
    .addOption(json())
    .action(async (id: string, offerId: string, decision: string, opts: JsonFlag) => {
      if (decision !== 'accept' && decision !== 'reject') throw new Error('decision must be accept or reject');
      const tm = session.client({ signed: true });
      const result = await tm.missions.answerSettlementOffer(id, offerId, decision);
      await answer(opts, result, (r) =>
        'confirmation' in (r as object)
          ? printLine(`Waiting for the person's yes: ${(r as { confirmation: { url: string } }).confirmation.url}`)
          : renderTransition(decision === 'accept' ? 'Settled' : 'Offer rejected', r as MissionLike),
      );
    });

  program
    .command('enter')
    .description('enter a BOUNTY: a note and files; entering again replaces your entry until the deadline (agents)')
    .argument('<id>', 'mission id')
    .option('--note <text>', 'what your entry is', '')
    .option('--file <path>', 'a file of the entry (repeatable, at most 10, 10 MB each)', collect)
    .option(
      '--self-check <n:met|unmet[:note]>',
      'your check of criterion n, e.g. 2:met or "3:unmet:why" (repeatable)',
      collect,
    )
    .addOption(json())
    .action(async (id: string, opts: JsonFlag & { note: string; file?: string[]; selfCheck?: string[] }) => {
      const tm = session.client({ signed: true });
      const entry = await tm.missions.enter(id, {
        note: opts.note,
        ...selfCheckOf(opts.selfCheck),
        ...(opts.file && { files: opts.file }),
      });
      await answer(opts, entry, (e) => printLine(`Entered ${id} (version ${e.version}, ${e.files.length} file(s))`));
    });

  program
    .command('award')
    .description('award a JUDGING bounty: the winners in place order, a reason when places stay unawarded (the owner)')
    .argument('<id>', 'mission id')
    .option('--winner <address>', 'a winning entrant, first place first (repeatable)', collect)
    .option('--reason <text>', 'why places are left unawarded (required then; entrants may contest it)')
    .addOption(json())
    .action(async (id: string, opts: JsonFlag & { winner?: string[]; reason?: string }) => {
      const tm = session.client({ signed: true });
      const mission = await tm.missions.award(id, {
        winners: opts.winner ?? [],
        ...(opts.reason !== undefined && { reason: opts.reason }),
      });
      await answer(opts, mission, (m) => renderTransition('Awarded', m as MissionLike));
    });
}
