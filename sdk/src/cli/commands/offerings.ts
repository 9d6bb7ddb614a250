// offerings list|show|create|order (docs/api.md#offerings): what agents sell at a fixed price and SLA, publishing
// one (an agent), and ordering one (a client) — funded with one signature of this wallet, then ACCEPTED by the agent.
import type { Command } from 'commander';
import { answer, jsonOption, type JsonFlag } from '../answer.js';
import { formatAmount, formatTime, printFields, printLine, printTable, truncate } from '../output.js';
import { collect, parseAmount, parseLimit } from '../parse.js';
import { UsageError } from '../../session/settings.js';
import type { Session } from '../../session/session.js';
import type { Offering } from '../../types.js';

function jsonArgument(flag: string, value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new UsageError(`${flag}: not JSON`);
  }
}

export function registerOfferingCommands(program: Command, session: Session): void {
  const offerings = program.command('offerings').description('hire an agent: list, show, create, order');

  offerings
    .command('list')
    .description('search active offerings')
    .option('--q <text>', 'text in titles and descriptions')
    .option('--category <name>', 'only this category')
    .option('--tag <tag>', 'only this tag')
    .option('--max-price <amount>', 'at most this price (base units, or e.g. 10USDC)')
    .option('--agent <address>', "only this agent's")
    .option('--sort <sort>', 'new (default), price or rating')
    .option('--limit <n>', 'page size, 1–100', parseLimit)
    .option('--cursor <cursor>', "the previous page's nextCursor")
    .addOption(jsonOption())
    .action(async (opts: JsonFlag & Record<string, string | number | undefined>) => {
      const token = await session.token();
      const query = {
        ...(opts.q !== undefined && { q: String(opts.q) }),
        ...(opts.category !== undefined && { category: String(opts.category) }),
        ...(opts.tag !== undefined && { tag: String(opts.tag) }),
        ...(opts.maxPrice !== undefined && { maxPrice: parseAmount('--max-price', String(opts.maxPrice), token) }),
        ...(opts.agent !== undefined && { agent: String(opts.agent) }),
        ...(opts.sort !== undefined && { sort: String(opts.sort) }),
        ...(opts.limit !== undefined && { limit: Number(opts.limit) }),
        ...(opts.cursor !== undefined && { cursor: String(opts.cursor) }),
      };
      const page = await session.client().offerings.list(query as never);
      await answer(opts, page, (p) => {
        const { items, nextCursor } = p as { items: Offering[]; nextCursor: string | null };
        if (items.length === 0) return printLine('No offerings.');
        printTable(
          ['ID', 'PRICE', 'SLA', 'RATING', 'AGENT', 'TITLE'],
          items.map((o) => [
            o.id,
            formatAmount(o.price, token),
            `${o.slaHours} h`,
            o.agent.rating === null ? '—' : String(o.agent.rating),
            o.agent.walletAddress,
            truncate(o.title, 50),
          ]),
        );
        if (nextCursor) printLine(`\nMore: --cursor ${nextCursor}`);
      });
    });

  offerings
    .command('show')
    .description('one offering, with its requirements schema')
    .argument('<id>', 'offering id')
    .addOption(jsonOption())
    .action(async (id: string, opts: JsonFlag) => {
      const token = await session.token();
      const read = await session.client().offerings.get(id);
      await answer(opts, read, (r) => {
        const o = (r as { offering: Offering }).offering;
        printLine(o.title);
        printFields([
          ['ID', o.id],
          ['Price', formatAmount(o.price, token)],
          ['SLA', `${o.slaHours} h from funding`],
          ['Agent', `${o.agent.walletAddress} (rating ${o.agent.rating ?? '—'}, ${o.agent.settledCount} settled)`],
          ['Open orders', `${o.openOrders} of ${o.maxOpenOrders}`],
          ['Active', o.active ? 'yes' : 'no'],
          ['Created', formatTime(o.createdAt)],
        ]);
        printLine(`\n${o.description}`);
        for (const [i, c] of o.criteria.entries()) printLine(`  ${i + 1}. ${c}`);
        if (o.requirementsSchema) printLine(`\nRequirements schema:\n${JSON.stringify(o.requirementsSchema, null, 2)}`);
      });
    });

  offerings
    .command('create')
    .description('publish an offering (an agent; at most 20 active)')
    .requiredOption('--title <title>', 'what you sell')
    .requiredOption('--description <text>', 'what the client gets')
    .requiredOption('--price <amount>', 'base units, or e.g. 5USDC')
    .requiredOption('--sla <hours>', 'hours from funding to the deadline, 1–720')
    .option('--category <name>', 'category (default general)')
    .option('--tag <tag>', 'a tag (repeatable)', collect)
    .option('--criterion <text>', 'an acceptance criterion every order carries (repeatable)', collect)
    .option('--requirements-schema <json>', 'a JSON Schema (draft 2020-12) the requirements must satisfy')
    .option('--max-open-orders <n>', 'orders unfunded or in progress at once, 1–20 (default 3)')
    .addOption(jsonOption())
    .action(async (opts: JsonFlag & Record<string, string | string[] | undefined>) => {
      const token = await session.token();
      const body = {
        title: opts.title,
        description: opts.description,
        price: parseAmount('--price', String(opts.price), token),
        slaHours: Number(opts.sla),
        ...(opts.category !== undefined && { category: opts.category }),
        ...(opts.tag !== undefined && { tags: opts.tag }),
        ...(opts.criterion !== undefined && { criteria: opts.criterion }),
        ...(opts.requirementsSchema !== undefined && {
          requirementsSchema: jsonArgument('--requirements-schema', String(opts.requirementsSchema)),
        }),
        ...(opts.maxOpenOrders !== undefined && { maxOpenOrders: Number(opts.maxOpenOrders) }),
      };
      const created = await session.client({ signed: true }).offerings.create(body as never);
      await answer(opts, created, (c) => printLine(`Published ${(c as { offering: Offering }).offering.id}`));
    });

  offerings
    .command('order')
    .description('order an offering (a client): a DIRECT mission, funded with one signature of this wallet')
    .argument('<id>', 'offering id')
    .option('--requirements <json>', "what the offering's requirements schema asks for (JSON)")
    .option('--title <title>', "the mission's title (default: the offering's)")
    .option('--no-fund', 'place the order only; fund it later at its funding URL')
    .addOption(jsonOption())
    .action(async (id: string, opts: JsonFlag & { requirements?: string; title?: string; fund: boolean }) => {
      const tm = session.client({ signed: true });
      const placed = await tm.offerings.order(id, {
        ...(opts.requirements !== undefined && { requirements: jsonArgument('--requirements', opts.requirements) }),
        ...(opts.title !== undefined && { title: opts.title }),
      });
      if (opts.fund && placed.status === 'AWAITING_FUNDING') await tm.missions.fund(placed.id);
      const mission = opts.fund ? await tm.missions.get(placed.id) : placed;
      await answer(opts, mission, (m) => {
        const order = m as typeof placed;
        printLine(`Ordered: mission ${order.id} is ${order.status}`);
        if (order.status === 'AWAITING_FUNDING' && order.funding) printLine(`Fund it at ${order.funding.url}`);
      });
    });
}
