// An agent's whole journey driven only through @taskmarket/sdk against a production server on
// PGlite and an anvil of its own (tests/support/sdk/server.ts): sign-in with a private key and
// with an ERC-1271 wallet, registration sponsored and self-minted, the board read page by page,
// accept, deliver files from paths, approval by a client who funded with fundAndCreateMission,
// earnings and the on-chain claim. The chain is read directly only to check outcomes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createWalletClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { createHash } from 'node:crypto';
import { createClient, TaskmarketError, type Mission } from '../../sdk/src/index';
import { SERVER_START_TIMEOUT, startSdkTestServer, type SdkTestServer } from '../support/sdk/server';
import {
  claimableOf,
  clientWallet,
  deadlineIn,
  deliverablesOnDisk,
  erc1271Account,
  escrowTask,
  eventually,
  passportOf,
  sdkClient,
  usdcBalance,
} from '../support/sdk/sdk-fixtures';

let server: SdkTestServer;

beforeAll(async () => {
  server = await startSdkTestServer();
}, SERVER_START_TIMEOUT);

afterAll(async () => {
  await server?.stop();
});

const USDC = 1_000_000n;

describe('sign-in', () => {
  test('default: signs in with a private key, as that wallet', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const tm = sdkClient(server, account);
    const { token, user } = await tm.signIn();
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(user).toEqual({ id: expect.any(String), walletAddress: account.address.toLowerCase(), role: 'CLIENT' });
    expect((await tm.auth.me()).user.id).toBe(user.id);
  });

  test('behavior: the first call that needs a token signs in by itself', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const tm = sdkClient(server, account);
    const me = await tm.auth.me();
    expect(me).toEqual({
      user: { id: expect.any(String), walletAddress: account.address.toLowerCase(), role: 'CLIENT' },
      passport: null,
    });
  });

  test('behavior: signs in with an ERC-1271 smart-contract wallet, as the wallet', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const wallet = await erc1271Account(server, owner);
    const tm = sdkClient(server, wallet);
    const { user } = await tm.signIn();
    expect(user.walletAddress).toBe(wallet.address.toLowerCase());
    expect(user.walletAddress).not.toBe(owner.address.toLowerCase());
    expect((await tm.auth.me()).user.walletAddress).toBe(wallet.address.toLowerCase());
  });

  test('behavior: a viem WalletClient signs in and funds a mission over its own transport (no rpcUrl)', async () => {
    const account = await clientWallet(server, 2n * USDC);
    const wallet = createWalletClient({
      account,
      chain: { ...foundry, id: server.chain.chainId },
      transport: http(server.chain.rpcUrl),
    });
    const tm = createClient({ baseUrl: server.url, account: wallet });
    expect((await tm.signIn()).user.walletAddress).toBe(account.address.toLowerCase());
    const mission = await tm.fundAndCreateMission({
      title: 'From a WalletClient',
      description: 'Funded',
      reward: (2n * USDC).toString(),
      deadline: deadlineIn(2),
    });
    expect((await escrowTask(server, mission.onChainTaskId!))[1]).toBe(2n * USDC);
  });

  test('error: without an account, signing in is a TaskmarketError', async () => {
    const error = await sdkClient(server, undefined)
      .auth.me()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskmarketError);
    expect(error).toMatchObject({ status: 0, error: expect.stringMatching(/account/) });
  });
});

describe('registerAgent', () => {
  test('default: sponsored — the server mints the passport', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const tm = sdkClient(server, account);
    const registered = await tm.registerAgent();
    expect(registered.user.role).toBe('AGENT');
    expect(registered.passport).toMatchObject({
      status: 'MINTED',
      tokenId: expect.stringMatching(/^[1-9]\d*$/),
      contract: server.chain.contracts.passport.toLowerCase(),
      chainId: server.chain.chainId,
    });
    expect(await passportOf(server, account.address)).toBe(BigInt(registered.passport.tokenId!));
    // The token the SDK now holds carries the new role: agent-only endpoints answer.
    expect(await tm.agents.passport()).toEqual(registered.passport);
  });

  test('behavior: selfMint — the wallet mints its own passport, the server records it', async () => {
    const account = await server.newFundedAccount();
    const tm = sdkClient(server, account);
    const registered = await tm.registerAgent({ selfMint: true });
    const onChain = await passportOf(server, account.address);
    expect(onChain).toBeGreaterThan(0n);
    expect(registered.user.role).toBe('AGENT');
    expect(registered.passport).toMatchObject({ status: 'MINTED', tokenId: onChain.toString() });
    // Registering again mints nothing more and answers the same passport.
    expect((await tm.registerAgent({ selfMint: true })).passport.tokenId).toBe(onChain.toString());
    expect(await passportOf(server, account.address)).toBe(onChain);
  });
});

describe('missions', () => {
  test('behavior: lists with async iteration across three pages', async () => {
    const tm = sdkClient(server, await clientWallet(server, 5n * USDC));
    const category = `pages-${Date.now().toString(36)}`;
    const posted: string[] = [];
    for (let i = 0; i < 5; i++) {
      const mission = await tm.fundAndCreateMission({
        title: `Paged ${i}`,
        description: 'One of five',
        category,
        reward: USDC.toString(),
        deadline: deadlineIn(7),
      });
      posted.push(mission.id);
    }
    const list = tm.missions.list({ category, limit: 2, sort: 'created' });
    const first = await list;
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const pages: number[] = [];
    for await (const page of list.pages()) pages.push(page.items.length);
    expect(pages).toEqual([2, 2, 1]);
    const seen: string[] = [];
    for await (const mission of tm.missions.list({ category, limit: 2, sort: 'created' })) seen.push(mission.id);
    expect(seen).toEqual([...posted].reverse()); // newest first
  });

  test(
    'default: a client funds and posts, an agent accepts, delivers two files from paths, is ' +
      'approved, sees its earnings and claims',
    async () => {
      const reward = 25n * USDC;
      const clientAccount = await clientWallet(server, reward);
      const client = sdkClient(server, clientAccount);
      const agentAccount = privateKeyToAccount(generatePrivateKey());
      const agent = sdkClient(server, agentAccount);
      await agent.registerAgent();

      // The client escrows the reward on-chain and posts, all in one call.
      const posted = await client.fundAndCreateMission({
        title: 'Write the report',
        description: 'A text report and a screenshot',
        category: 'writing',
        tags: ['report'],
        reward: reward.toString(),
        deadline: deadlineIn(3),
      });
      expect(posted).toMatchObject({
        status: 'OPEN',
        reward: reward.toString(),
        client: { walletAddress: clientAccount.address.toLowerCase() },
        tags: ['report'],
      });
      expect(posted.onChainTaskId).toEqual(expect.any(Number));
      const task = await escrowTask(server, posted.onChainTaskId!);
      expect(task[0].toLowerCase()).toBe(clientAccount.address.toLowerCase());
      expect(task[1]).toBe(reward);
      expect(await usdcBalance(server, clientAccount.address)).toBe(0n);

      const accepted = await agent.missions.accept(posted.id);
      expect(accepted).toMatchObject({
        status: 'ACCEPTED',
        agent: { walletAddress: agentAccount.address.toLowerCase() },
      });

      const files = deliverablesOnDisk();
      const submitted = await agent.missions.submit(posted.id, {
        note: 'Done, see the files',
        files: [files.report, files.image],
      });
      expect(submitted.status).toBe('SUBMITTED');
      expect(submitted.submission?.note).toBe('Done, see the files');
      const sha256 = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');
      expect(submitted.submission?.files).toEqual([
        {
          id: expect.any(String),
          filename: 'report.txt',
          contentType: 'text/plain',
          size: Buffer.byteLength(files.reportText),
          sha256: sha256(files.reportText),
        },
        {
          id: expect.any(String),
          filename: 'screenshot.png',
          contentType: 'image/png',
          size: files.imageBytes.length,
          sha256: sha256(files.imageBytes),
        },
      ]);
      // The client reads the delivery back, byte for byte.
      const seen: Mission = await client.missions.get(posted.id);
      const png = await client.missions.download(posted.id, seen.submission!.files[1]!.id);
      expect(Buffer.from(await png.arrayBuffer()).equals(files.imageBytes)).toBe(true);

      const approved = await client.missions.approve(posted.id);
      expect(approved.status).toBe('COMPLETED');

      // Release is sent by the server after the answer: earnings show it pending once mined.
      const earned = await eventually(
        () => agent.agents.earnings(),
        (e) => e.pending === reward.toString(),
        'pending earnings',
      );
      expect(earned.history).toContainEqual(
        expect.objectContaining({ type: 'EARNED', missionId: posted.id, amount: reward.toString() }),
      );
      expect(await claimableOf(server, agentAccount.address)).toBe(reward);

      const claim = await agent.agents.claim();
      expect(claim.amount).toBe(reward.toString());
      await eventually(
        () => agent.agents.earnings(),
        (e) => e.claimed === reward.toString() && e.pending === '0',
        'claimed earnings',
      );
      expect(await usdcBalance(server, agentAccount.address)).toBe(reward);
      expect(await claimableOf(server, agentAccount.address)).toBe(0n);
    },
  );
});

describe('errors', () => {
  test('error: accepting a mission that does not exist is a TaskmarketError 404 with the API message', async () => {
    const agent = sdkClient(server, privateKeyToAccount(generatePrivateKey()));
    await agent.registerAgent();
    const error = await agent.missions.accept(crypto.randomUUID()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskmarketError);
    expect(error).toMatchObject({ status: 404, error: 'Mission not found' });
  });

  test('error: a body that fails validation is a TaskmarketError 400 listing each problem', async () => {
    const tm = sdkClient(server, privateKeyToAccount(generatePrivateKey()));
    const error = (await tm.missions
      .create({ title: '', description: 'x', reward: '-5', deadline: 'tomorrow' })
      .catch((e: unknown) => e)) as TaskmarketError;
    expect(error).toBeInstanceOf(TaskmarketError);
    expect(error.status).toBe(400);
    expect(error.error).toEqual(expect.any(String));
    expect(error.details).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^title/),
        expect.stringMatching(/^reward/),
        expect.stringMatching(/^deadline/),
      ]),
    );
    expect(error.message).toContain(error.error);
  });

  test('error: an action by the wrong party is a TaskmarketError 403', async () => {
    const client = sdkClient(server, await clientWallet(server, USDC));
    const mission = await client.fundAndCreateMission({
      title: 'Mine',
      description: 'Only I approve',
      reward: USDC.toString(),
      deadline: deadlineIn(2),
    });
    const stranger = sdkClient(server, privateKeyToAccount(generatePrivateKey()));
    const error = await stranger.missions.cancel(mission.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskmarketError);
    expect((error as TaskmarketError).status).toBe(403);
  });

  test('error: fundAndCreateMission refuses what the server would refuse before paying anything', async () => {
    const account = await clientWallet(server, USDC);
    const tm = sdkClient(server, account);
    const error = await tm
      .fundAndCreateMission({
        title: 'Too late',
        description: 'Past deadline',
        reward: USDC.toString(),
        deadline: new Date(Date.now() - 60_000).toISOString(),
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskmarketError);
    expect(error).toMatchObject({ status: 0, details: ['deadline: must be in the future'] });
    expect(await usdcBalance(server, account.address)).toBe(USDC);
  });

  test('error: an unreachable server is a TaskmarketError with status 0', async () => {
    const error = await sdkClient({ ...server, url: 'http://127.0.0.1:9' }, undefined)
      .health()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskmarketError);
    expect((error as TaskmarketError).status).toBe(0);
  });
});
