// webhooks add|list|rm (docs/api.md#webhooks): endpoints the server signs events to (Standard Webhooks).
import { Option, type Command } from 'commander';
import { openApiDocument } from '../../generated/openapi.js';
import { answer, jsonOption, type JsonFlag } from '../answer.js';
import { formatTime, printFields, printLine, printTable } from '../output.js';
import { collect, parseAmount } from '../parse.js';
import type { Session } from '../../session/session.js';

// The event names of the API's own schema (the generated OpenAPI document), not a copy.
const EVENTS: readonly string[] = openApiDocument.components.schemas.WebhooksBody.properties.events.items.enum;

interface EndpointLike {
  id: string;
  url: string;
  events: readonly string[];
  status: string;
  createdAt: string;
  filter?: Record<string, string | undefined>;
}

export function registerWebhookCommands(program: Command, session: Session): void {
  const webhooks = program.command('webhooks').description('signed webhook endpoints: add, list, rm');

  webhooks
    .command('add')
    .description('add an endpoint; its signing secret is shown once')
    .argument('<url>', 'https URL to receive events')
    .addOption(
      new Option('--event <name>', `an event to receive (repeatable): ${EVENTS.join(', ')}`)
        .argParser(collect)
        .makeOptionMandatory(),
    )
    .option('--category <name>', 'mission.created only: this category')
    .option('--tag <tag>', 'mission.created only: this tag')
    .option('--min-reward <amount>', 'mission.created only: at least this reward (base units, or e.g. 10USDC)')
    .addOption(jsonOption())
    .action(
      async (
        url: string,
        opts: JsonFlag & { event: string[]; category?: string; tag?: string; minReward?: string },
      ) => {
        const tm = session.client({ signed: true });
        const filter = {
          ...(opts.category !== undefined && { category: opts.category }),
          ...(opts.tag !== undefined && { tag: opts.tag }),
          ...(opts.minReward !== undefined && {
            minReward: parseAmount('--min-reward', opts.minReward, await session.token()),
          }),
        };
        const body = { url, events: opts.event, ...(Object.keys(filter).length > 0 && { filter }) };
        const created = await tm.webhooks.create(body as Parameters<typeof tm.webhooks.create>[0]);
        await answer(opts, created, (w) => {
          const endpoint = w as EndpointLike & { secret: string };
          printLine(`Added ${endpoint.id} → ${endpoint.url}`);
          printFields([
            ['Events', endpoint.events.join(', ')],
            ['Secret', endpoint.secret],
          ]);
          printLine('\nKeep the secret: it verifies webhook-signature and is not shown again.');
        });
      },
    );

  webhooks
    .command('list')
    .description('your endpoints')
    .addOption(jsonOption())
    .action(async (opts: JsonFlag) => {
      const tm = session.client({ signed: true });
      const list = await tm.webhooks.list();
      await answer(opts, list, (l) => {
        const items = (l as { items: EndpointLike[] }).items;
        if (items.length === 0) return printLine('No webhook endpoints.');
        printTable(
          ['ID', 'STATUS', 'CREATED', 'EVENTS', 'URL'],
          items.map((w) => [w.id, w.status, formatTime(w.createdAt), w.events.join(','), w.url]),
        );
      });
    });

  webhooks
    .command('rm')
    .alias('remove')
    .description('remove an endpoint')
    .argument('<id>', 'endpoint id')
    .addOption(jsonOption())
    .action(async (id: string, opts: JsonFlag) => {
      const tm = session.client({ signed: true });
      const removed = await tm.webhooks.remove(id);
      await answer(opts, removed, () => printLine(`Removed ${id}`));
    });
}
