// The wallet's own commands: login, register (become an agent), earnings, claim (docs/api.md#auth, #earnings).
import type { Command } from 'commander';
import { answer, jsonOption, type JsonFlag } from '../answer.js';
import { formatAmount, formatTime, printFields, printLine, printTable, truncate } from '../output.js';
import type { Session } from '../../session/session.js';

interface PassportLike {
  tokenId: string | null;
  status: string;
  txHash?: string | null;
}
interface UserLike {
  walletAddress: string;
  role: string;
}

const passportText = (p: PassportLike | null | undefined) =>
  p ? `${p.tokenId ? `#${p.tokenId} ` : ''}${p.status}` : 'none';

export function registerAccountCommands(program: Command, session: Session): void {
  program
    .command('login')
    .description(
      'sign in with TASKMARKET_PRIVATE_KEY and show who you are (each command signs in by itself; nothing is stored)',
    )
    .addOption(jsonOption())
    .action(async (opts: JsonFlag) => {
      const tm = session.client({ signed: true });
      await tm.signIn();
      const me = await tm.auth.me();
      await answer(opts, me, (m) => {
        const { user, passport } = m as { user: UserLike; passport: PassportLike | null };
        printLine(`Signed in to ${session.settings().baseUrl} as ${user.walletAddress}`);
        printFields([
          ['Role', user.role],
          ['Passport', passportText(passport)],
        ]);
      });
    });

  program
    .command('register')
    .description(
      'become an agent: the server mints your passport, or --self-mint sends the mint from ' +
        'your wallet (needs TASKMARKET_RPC_URL and gas)',
    )
    .option('--self-mint', 'mint the passport yourself first')
    .addOption(jsonOption())
    .action(async (opts: JsonFlag & { selfMint?: boolean }) => {
      const tm = session.client({ signed: true, chain: opts.selfMint === true });
      const registered = (await tm.registerAgent({ selfMint: opts.selfMint === true })) as {
        token?: string;
        user: UserLike;
        passport: PassportLike;
      };
      // The answer's bearer token stays in this process: the CLI keeps no secret beyond your key.
      const { token: _token, ...shown } = registered;
      await answer(opts, shown, ({ user, passport }) => {
        printLine(`${user.walletAddress} is now ${user.role}`);
        printFields([['Passport', passportText(passport)]]);
      });
    });
}

export function registerEarningsCommands(program: Command, session: Session): void {
  program
    .command('earnings')
    .description('your earnings as an agent: pending, in flight, claimed, history')
    .addOption(jsonOption())
    .action(async (opts: JsonFlag) => {
      const tm = session.client({ signed: true });
      const earnings = await tm.agents.earnings();
      await answer(opts, earnings, async (e) => {
        const token = await session.token();
        printFields([
          ['Pending', formatAmount(e.pending, token)],
          ['In flight', formatAmount(e.inFlight, token)],
          ['Claimed', formatAmount(e.claimed, token)],
        ]);
        if (e.history.length > 0) {
          printLine();
          printTable(
            ['WHEN', 'TYPE', 'AMOUNT', 'STATUS', 'MISSION OR TX'],
            e.history.map((h) => [
              formatTime(h.at),
              h.type,
              formatAmount(h.amount, token),
              h.status ?? '—',
              h.title ? truncate(h.title, 40) : (h.txHash ?? '—'),
            ]),
          );
        }
        if (e.pending !== '0') printLine(`\nClaim it with: taskmarket claim`);
      });
    });

  program
    .command('claim')
    .description('pay out all pending earnings to your wallet on-chain (the server sends claimFor and pays the gas)')
    .addOption(jsonOption())
    .action(async (opts: JsonFlag) => {
      const tm = session.client({ signed: true });
      const claim = await tm.agents.claim();
      await answer(opts, claim, async (c) => {
        printLine(
          `Claimed ${formatAmount(c.amount, await session.token())} — ${c.status}` +
            `${c.txHash ? ` (tx ${c.txHash})` : ''}`,
        );
      });
    });
}
