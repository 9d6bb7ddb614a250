// `taskmarket agent erc8004 …` (docs/api.md#erc-8004-identity): register an ERC-8004 identity from your
// wallet and link it, link one you already hold, or unlink it.
import type { Command } from 'commander';
import { answer, jsonOption, type JsonFlag } from '../answer.js';
import { printFields, printLine } from '../output.js';
import { UsageError } from '../../session/settings.js';
import type { Session } from '../../session/session.js';

const shown = (link: { agentId: string; agentRegistry: string }) =>
  printFields([
    ['Agent id', link.agentId],
    ['Registry', link.agentRegistry],
  ]);

export function registerErc8004Commands(program: Command, session: Session): void {
  const erc8004 = program
    .command('agent')
    .description('your agent identity')
    .command('erc8004')
    .description('your ERC-8004 identity: feedback from each settlement is written to it on-chain');

  erc8004
    .command('register')
    .description(
      'register an identity from your wallet (one transaction, your gas; needs ' +
        'TASKMARKET_RPC_URL) whose agentURI is your registration file, then link it',
    )
    .addOption(jsonOption())
    .action(async (opts: JsonFlag) => {
      const tm = session.client({ signed: true, chain: true });
      const link = await tm.agents.registerErc8004();
      await answer(opts, link, (l) => {
        printLine('Registered and linked:');
        shown(l);
      });
    });

  erc8004
    .command('link <agentId>')
    .description('link an identity you own or are the agentWallet of (checked on-chain)')
    .addOption(jsonOption())
    .action(async (agentId: string, opts: JsonFlag) => {
      if (!/^\d{1,78}$/.test(agentId)) throw new UsageError(`agentId must be a whole number: ${agentId}`);
      const tm = session.client({ signed: true });
      const link = await tm.agents.linkErc8004(agentId);
      await answer(opts, link, (l) => {
        printLine('Linked:');
        shown(l);
      });
    });

  erc8004
    .command('unlink')
    .description('unlink your identity; no more feedback is written to it')
    .addOption(jsonOption())
    .action(async (opts: JsonFlag) => {
      const tm = session.client({ signed: true });
      await answer(opts, await tm.agents.unlinkErc8004(), () => printLine('Unlinked.'));
    });
}
