// The `taskmarket` CLI (docs/api.md#sdk-and-cli) as a child process against a production server and its own
// anvil: a client posts a funded mission; an agent signs in, registers, lists, accepts, submits
// two files from paths, is approved, sees its earnings and claims them on-chain. Plus webhooks,
// human output, and failures that exit non-zero with the API's message.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mintTestUsdc, SERVER_START_TIMEOUT, startSdkTestServer, type SdkTestServer } from '../support/sdk/server';
import { parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createClient } from '@taskmarket/sdk';
import { buildSdk } from '../support/sdk/sdk-build';
import {
  claimableOf,
  cliJson,
  ethBalanceOf,
  eventually,
  newWallet,
  runCli,
  SUITE_SERVER_ENV,
  usdcBalanceOf,
  type Wallet,
} from '../support/sdk/cli-process';

const REWARD = 25_000_000n; // 25 USDC

interface Mission {
  id: string;
  title: string;
  status: string;
  reward: string;
  onChainTaskId: number | null;
  client: { walletAddress: string };
  agent: { walletAddress: string } | null;
  submission: { note: string; files: { filename: string; contentType: string; size: number }[] } | null;
  attachments: { id: string; filename: string }[];
}

let server: SdkTestServer;
let client: Wallet;
let files: string;

beforeAll(async () => {
  await buildSdk();
  server = await startSdkTestServer(SUITE_SERVER_ENV);
  client = await newWallet(server);
  await mintTestUsdc(server, client.address, 1_000n * 10n ** 6n);
  files = mkdtempSync(join(tmpdir(), 'taskmarket-cli-'));
}, SERVER_START_TIMEOUT);

afterAll(async () => {
  await server?.stop();
  if (files) rmSync(files, { recursive: true, force: true });
});

/** `taskmarket post`: created, then funded with one signature the server relays. */
async function post(title: string, extra: string[] = []): Promise<Mission> {
  return cliJson<Mission>(server, client, [
    'post',
    '--title',
    title,
    '--description',
    'Summarise the attached data',
    '--reward',
    REWARD.toString(),
    '--deadline',
    '7d',
    '--tag',
    'cli',
    ...extra,
  ]);
}

describe('taskmarket CLI', () => {
  test(
    'an agent signs in, registers, lists, accepts, submits two files, is approved, sees its ' + 'earnings and claims',
    async () => {
      const brief = join(files, 'figures.csv');
      writeFileSync(brief, 'month,total\njan,40\nfeb,2\n');
      const mission = await post('CLI lifecycle mission', ['--file', brief]);
      expect(mission).toMatchObject({
        status: 'OPEN',
        reward: REWARD.toString(),
        client: { walletAddress: client.address.toLowerCase() },
      });
      expect(mission.attachments.map((f) => f.filename)).toEqual(['figures.csv']);
      expect(mission.onChainTaskId).toEqual(expect.any(Number));

      const agent = await newWallet(server);
      const me = await cliJson<{ user: { walletAddress: string; role: string } }>(server, agent, ['login']);
      expect(me.user).toMatchObject({ walletAddress: agent.address.toLowerCase(), role: 'CLIENT' });

      const registered = await cliJson<{ user: { role: string }; passport: { status: string } }>(server, agent, [
        'register',
      ]);
      expect(registered.user.role).toBe('AGENT');
      expect(['MINTED', 'PENDING']).toContain(registered.passport.status);
      expect(registered).not.toHaveProperty('token');

      // `missions list --json` prints the API's page as it came: { items, nextCursor }.
      const page = await cliJson<{ items: Mission[]; nextCursor: string | null }>(server, agent, [
        'missions',
        'list',
        '--tag',
        'cli',
        '--limit',
        '100',
      ]);
      expect(Object.keys(page).sort()).toEqual(['items', 'nextCursor']);
      expect(page.items.map((m) => m.id)).toContain(mission.id);

      expect(await cliJson<Mission>(server, agent, ['accept', mission.id])).toMatchObject({
        status: 'ACCEPTED',
        agent: { walletAddress: agent.address.toLowerCase() },
      });

      // The agent reads the attachment: saved where --output says, never over an existing file without --clobber.
      const shown = await cliJson<Mission>(server, agent, ['missions', 'show', mission.id]);
      const saved = join(files, 'downloaded.csv');
      const download = ['missions', 'download', mission.id, shown.attachments[0]!.id, '--output', saved];
      expect(await cliJson(server, agent, download)).toMatchObject({
        path: saved,
        filename: 'figures.csv',
        contentType: 'text/csv',
        size: 25,
      });
      expect(readFileSync(saved, 'utf8')).toBe('month,total\njan,40\nfeb,2\n');
      const again = await runCli(server, agent, download);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('exists: use --clobber');
      expect((await runCli(server, agent, [...download, '--clobber'])).code).toBe(0);

      const report = join(files, 'report.md');
      const data = join(files, 'data.csv');
      writeFileSync(report, '# Summary\n\nAll rows add up.\n');
      writeFileSync(data, 'row,total\n1,42\n');
      const submitted = await cliJson<Mission>(server, agent, [
        'submit',
        mission.id,
        '--note',
        'Summary and the figures',
        '--file',
        report,
        '--file',
        data,
      ]);
      expect(submitted.status).toBe('SUBMITTED');
      expect(submitted.submission?.note).toBe('Summary and the figures');
      expect(submitted.submission?.files.map((f) => [f.filename, f.contentType]).sort()).toEqual([
        ['data.csv', 'text/csv'],
        ['report.md', 'text/markdown'],
      ]);

      expect(await cliJson<Mission>(server, client, ['approve', mission.id])).toMatchObject({ status: 'COMPLETED' });

      const earnings = await cliJson<{ pending: string; claimed: string; inFlight: string; history: unknown[] }>(
        server,
        agent,
        ['earnings'],
      );
      expect(earnings.pending).toBe(REWARD.toString());
      expect(earnings.history.length).toBeGreaterThan(0);

      // The release is sent after the approval's answer; the claim pays what the escrow holds.
      await eventually(async () => (await claimableOf(server, agent.address)) === REWARD, 'the release to be mined');
      const claim = await cliJson<{ amount: string; status: string; txHash: string | null }>(server, agent, ['claim']);
      expect(claim.amount).toBe(REWARD.toString());
      await eventually(async () => (await usdcBalanceOf(server, agent.address)) === REWARD, 'the claim to be paid');

      const after = await cliJson<{ pending: string; claimed: string }>(server, agent, ['earnings']);
      expect(after).toMatchObject({ pending: '0', claimed: REWARD.toString() });
    },
  );

  test('without --json, commands print short human lines and tables', async () => {
    const mission = await post('CLI human output mission');
    const list = await runCli(server, undefined, ['missions', 'list', '--tag', 'cli']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+STATUS\s+REWARD\s+DEADLINE\s+TITLE/);
    expect(list.stdout).toContain(mission.id);
    expect(list.stdout).toContain('25 USDC');

    // Amounts in the token's units: 25USDC is 25000000 base units.
    const atLeast25 = await cliJson<{ items: { id: string }[] }>(server, undefined, [
      'missions',
      'list',
      '--tag',
      'cli',
      '--min-reward',
      '25USDC',
    ]);
    expect(atLeast25.items.map((m) => m.id)).toContain(mission.id);
    const above25 = await cliJson<{ items: { id: string }[] }>(server, undefined, [
      'missions',
      'list',
      '--tag',
      'cli',
      '--min-reward',
      '25.000001USDC',
    ]);
    expect(above25.items.map((m) => m.id)).not.toContain(mission.id);

    const show = await runCli(server, undefined, ['missions', 'show', mission.id]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('Title:');
    expect(show.stdout).toContain('CLI human output mission');
    expect(show.stdout).toContain('Summarise the attached data');

    const login = await runCli(server, client, ['login']);
    expect(login.stdout).toContain(`as ${client.address.toLowerCase()}`);
  });

  test(
    "register --self-mint mints from the agent's own wallet; contest sends the reason and " +
      "evidence; --mine lists the agent's",
    async () => {
      const agent = await newWallet(server);
      const registered = await cliJson<{
        user: { role: string };
        passport: { status: string; tokenId: string | null };
      }>(server, agent, ['register', '--self-mint']);
      expect(registered).toMatchObject({ user: { role: 'AGENT' }, passport: { status: 'MINTED' } });
      expect(registered.passport.tokenId).not.toBeNull();
      // The wallet paid the mint's gas: it holds less than the 10 ETH it was given.
      expect(await ethBalanceOf(server, agent.address)).toBeLessThan(parseEther('10'));

      const mission = await post('CLI contested mission');
      await cliJson(server, agent, ['accept', mission.id]);
      const delivery = join(files, 'draft.txt');
      writeFileSync(delivery, 'a first draft\n');
      await cliJson(server, agent, ['submit', mission.id, '--file', delivery]);
      const evidence = join(files, 'evidence.json');
      writeFileSync(evidence, JSON.stringify({ missing: ['totals'] }));
      const contested = await cliJson<{
        status: string;
        contests: { reason: string; files: { filename: string }[] }[];
      }>(server, client, ['contest', mission.id, '--reason', 'The totals are missing', '--file', evidence]);
      expect(contested.status).toBe('CONTESTED');
      expect(contested.contests[0]).toMatchObject({
        reason: 'The totals are missing',
        files: [{ filename: 'evidence.json' }],
      });

      const mine = await cliJson<{ items: { id: string; status: string }[] }>(server, agent, [
        'missions',
        'list',
        '--mine',
        'agent',
        '--status',
        'CONTESTED',
      ]);
      expect(mine.items.map((m) => [m.id, m.status])).toEqual([[mission.id, 'CONTESTED']]);
    },
  );

  test('webhooks add, list and rm', async () => {
    const added = await cliJson<{ id: string; secret: string; events: string[]; url: string }>(server, client, [
      'webhooks',
      'add',
      'http://localhost:9/taskmarket',
      '--event',
      'mission.created',
      '--event',
      'mission.completed',
      '--category',
      'code',
    ]);
    expect(added.secret).toMatch(/^whsec_/);
    expect(added.events.sort()).toEqual(['mission.completed', 'mission.created']);

    const listed = await cliJson<{ items: { id: string; url: string }[] }>(server, client, ['webhooks', 'list']);
    expect(listed.items.map((w) => w.id)).toContain(added.id);
    expect(listed.items.find((w) => w.id === added.id)).not.toHaveProperty('secret');

    expect(await cliJson(server, client, ['webhooks', 'rm', added.id])).toEqual({ ok: true });
    const left = await cliJson<{ items: { id: string }[] }>(server, client, ['webhooks', 'list']);
    expect(left.items.map((w) => w.id)).not.toContain(added.id);
  });

  test(
    "a refused request exits 1 with the API's message on stderr; so does a server that " + 'cannot be reached',
    async () => {
      const unknown = crypto.randomUUID();
      const api = (await (await fetch(`${server.url}/api/missions/${unknown}`)).json()) as { error: string };
      const run = await runCli(server, client, ['missions', 'show', unknown, '--json']);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`Error: ${api.error}\n`);

      // A client is not an agent: the API's 403 message, as it says it.
      const mission = await post('CLI refused accept');
      const refused = await runCli(server, client, ['accept', mission.id]);
      expect(refused).toMatchObject({ code: 1, stdout: '', stderr: 'Error: Agent role required\n' });

      // Validation failures list each problem by field under the message.
      const invalid = await runCli(server, client, ['webhooks', 'add', 'not a url', '--event', 'mission.created']);
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toMatch(/^Error: Validation failed\n {2}- url: /);

      const unreachable = await runCli({ ...server, url: 'http://127.0.0.1:9' }, client, ['missions', 'list']);
      expect(unreachable.code).toBe(1);
      expect(unreachable.stderr).toMatch(/^Error: Could not reach http:\/\/127\.0\.0\.1:9/);
    },
  );

  test(
    '--from-wallet: a post refused after funding names the escrowed task; --task-id posts ' +
      'with it without paying again',
    async () => {
      const flags = [
        '--title',
        'CLI refused then reused',
        '--description',
        'x',
        '--reward',
        '2USDC',
        '--deadline',
        '2d',
      ];
      const refused = await runCli(server, client, ['post', ...flags, '--from-wallet', '--tag', 'no,commas']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^Error: Validation failed\n {2}- tags\.0: /);
      const taskId = /--task-id (\d+)/.exec(refused.stderr)?.[1];
      expect(taskId).toBeDefined();

      const balance = await usdcBalanceOf(server, client.address);
      const posted = await cliJson<Mission>(server, client, ['post', ...flags, '--task-id', taskId!]);
      expect(posted).toMatchObject({ status: 'OPEN', reward: '2000000', onChainTaskId: Number(taskId) });
      expect(await usdcBalanceOf(server, client.address)).toBe(balance);
    },
  );

  test(
    'a headless agent runs with a personal access token (TASKMARKET_TOKEN), refused outside ' + 'its scopes',
    async () => {
      const wallet = await newWallet(server);
      const { token: session } = await createClient({
        baseUrl: server.url,
        account: privateKeyToAccount(wallet.key),
      }).signIn();
      const created = await fetch(`${server.url}/api/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'ci agent', scopes: ['missions:read'] }),
      });
      expect(created.status).toBe(201);
      const headless = { ...wallet, token: ((await created.json()) as { token: string }).token };
      expect(await cliJson(server, headless, ['missions', 'list', '--mine', 'client'])).toMatchObject({ items: [] });
      const refused = await runCli(server, headless, ['webhooks', 'list']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('Token lacks the webhooks scope');
    },
  );

  // docs/api.md#offerings, #settlement-offers, #client-record: the wave's three CLI verbs in one deal.
  test(
    'hire and settle in part: offerings create, list and order; offer and answer-offer; ' + 'clients show',
    async () => {
      const buyer = await newWallet(server);
      await mintTestUsdc(server, buyer.address, 10_000_000n);
      const seller = await newWallet(server);
      await cliJson(server, seller, ['register']);
      const { offering } = await cliJson<{ offering: { id: string; price: string; slaHours: number } }>(
        server,
        seller,
        ['offerings', 'create', '--title', 'A CLI summary', '--description', 'Your data in one page'].concat([
          '--price',
          '10USDC',
          '--sla',
          '48',
          '--tag',
          'cli-hire',
          '--criterion',
          'One page',
        ]),
      );
      expect(offering).toMatchObject({ price: '10000000', slaHours: 48 });
      const found = await cliJson<{ items: { id: string }[] }>(server, buyer, [
        'offerings',
        'list',
        '--tag',
        'cli-hire',
      ]);
      expect(found.items.map((o) => o.id)).toEqual([offering.id]);

      // Ordered and funded with one signature of the buyer's: the seller's at once.
      const ordered = await cliJson<Mission>(server, buyer, ['offerings', 'order', offering.id]);
      expect(ordered).toMatchObject({
        status: 'ACCEPTED',
        reward: '10000000',
        agent: { walletAddress: seller.address.toLowerCase() },
      });
      const page = join(files, 'one-page.md');
      writeFileSync(page, '# One page\n');
      await cliJson(server, seller, ['submit', ordered.id, '--note', 'Here it is', '--file', page]);

      const { offer } = await cliJson<{ offer: { id: string; by: string; agentAmount: string; refund: string } }>(
        server,
        buyer,
        ['offer', ordered.id, '6000000', '--note', 'Only half the rows'],
      );
      expect(offer).toMatchObject({ by: 'client', agentAmount: '6000000', refund: '4000000' });
      const ownAnswer = await runCli(server, buyer, ['answer-offer', ordered.id, offer.id, 'accept']);
      expect(ownAnswer.code).toBe(1);
      const settled = await cliJson<Mission>(server, seller, ['answer-offer', ordered.id, offer.id, 'accept']);
      expect(settled.status).toBe('COMPLETED');
      // In one settle on-chain: 6 USDC claimable by the seller (this suite's fee is the default 0), and
      // the other 4 by the buyer, whose wallet paid all 10.
      await eventually(async () => (await claimableOf(server, seller.address)) === 6_000_000n, 'the part released');
      expect(await claimableOf(server, buyer.address)).toBe(4_000_000n);
      expect(await usdcBalanceOf(server, buyer.address)).toBe(0n);

      const record = await cliJson<{ walletAddress: string; record: Record<string, unknown> }>(server, seller, [
        'clients',
        'show',
        buyer.address,
      ]);
      expect(record.walletAddress).toBe(buyer.address.toLowerCase());
      expect(record.record).toMatchObject({ funded: 1, completed: 1, approvedExplicitly: 0, contestsRaised: 0 });
      const human = await runCli(server, undefined, ['clients', 'show', buyer.address]);
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/^Funded:\s+1$/m);
      expect((await runCli(server, undefined, ['clients', 'show', 'not-an-address'])).code).toBe(2);
    },
  );

  test(
    'usage errors exit 2: a missing argument, an unknown flag, a bad flag value, no key for ' + 'a signed command',
    async () => {
      const missing = await runCli(server, client, ['accept']);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain("missing required argument 'id'");

      const unknownFlag = await runCli(server, client, ['earnings', '--nope']);
      expect(unknownFlag.code).toBe(2);

      const badLimit = await runCli(server, undefined, ['missions', 'list', '--limit', 'abc']);
      expect(badLimit).toMatchObject({ code: 2, stderr: 'Error: --limit: "abc" is not a page size from 1 to 100\n' });

      const keyless = await runCli(server, undefined, ['earnings']);
      expect(keyless.code).toBe(2);
      expect(keyless.stderr).toContain('TASKMARKET_PRIVATE_KEY');
    },
  );
});
