// Post and pay through @taskmarket/sdk and the `taskmarket` CLI (docs/api.md#post-and-pay) against a
// production server and its own anvil: a wallet holding USDC and no ETH posts and funds with one
// signature — fundAndCreateMission by default, missions.fund on a mission posted unfunded, and
// `taskmarket post` with no RPC URL. The chain is read directly only to check outcomes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { mintTestUsdc, SERVER_START_TIMEOUT, startSdkTestServer, type SdkTestServer } from '../support/sdk/server';
import { buildSdk } from '../support/sdk/sdk-build';
import { cliEnv, CLI, SUITE_SERVER_ENV } from '../support/sdk/cli-process';
import { chainReader, deadlineIn, escrowTask, sdkClient, usdcBalance } from '../support/sdk/sdk-fixtures';
import { execFile } from 'node:child_process';

let server: SdkTestServer;

beforeAll(async () => {
  await buildSdk();
  server = await startSdkTestServer(SUITE_SERVER_ENV);
}, SERVER_START_TIMEOUT);

afterAll(async () => {
  await server?.stop();
});

const USDC = 1_000_000n;

/** A wallet with `usdc` and not one wei of ETH. */
async function usdcOnly(usdc: bigint) {
  const account = privateKeyToAccount(generatePrivateKey());
  await mintTestUsdc(server, account.address, usdc);
  return account;
}

describe('post and pay (SDK)', () => {
  test('fundAndCreateMission posts and funds with one signature from a wallet without ETH', async () => {
    const account = await usdcOnly(3n * USDC);
    // No rpcUrl: the signature path needs none.
    const tm = sdkClient(server, account, { rpcUrl: undefined });
    const mission = await tm.fundAndCreateMission({
      title: 'Paid by signature',
      description: 'One signature',
      reward: (3n * USDC).toString(),
      deadline: deadlineIn(3),
    });
    expect(mission.status).toBe('OPEN');
    const [client, amount] = await escrowTask(server, mission.onChainTaskId!);
    expect(client.toLowerCase()).toBe(account.address.toLowerCase());
    expect(amount).toBe(3n * USDC);
    expect(await usdcBalance(server, account.address)).toBe(0n);
    expect(await chainReader(server).getBalance({ address: account.address })).toBe(0n);
  });

  test('missions.fund funds a mission posted unfunded; missions.funding tells where it stands', async () => {
    const account = await usdcOnly(2n * USDC);
    const tm = sdkClient(server, account, { rpcUrl: undefined });
    const posted = await tm.missions.create({
      title: 'Posted first',
      description: 'Funded after',
      reward: (2n * USDC).toString(),
      deadline: deadlineIn(2),
    });
    expect(posted.status).toBe('AWAITING_FUNDING');
    expect((await tm.missions.funding(posted.id)).status).toBe('awaiting_signature');
    const funded = await tm.missions.fund(posted.id);
    expect(funded).toMatchObject({ status: 'funded', onChainTaskId: expect.any(Number) });
    expect((await tm.missions.get(posted.id)).status).toBe('OPEN');
    // Funded already: fund again answers the same, signing nothing.
    expect((await tm.missions.fund(posted.id)).status).toBe('funded');
  });
});

describe('post and pay (CLI)', () => {
  test('taskmarket post funds with one signature, without TASKMARKET_RPC_URL or ETH', async () => {
    const key = generatePrivateKey();
    const { address } = privateKeyToAccount(key);
    await mintTestUsdc(server, address, 4n * USDC);
    const { TASKMARKET_RPC_URL: _rpc, ...env } = cliEnv(server, { key, address });
    const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          CLI,
          'post',
          '--title',
          'CLI by signature',
          '--description',
          'x',
          '--reward',
          '4USDC',
          '--deadline',
          '2d',
          '--json',
        ],
        { env: env as unknown as NodeJS.ProcessEnv },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const mission = JSON.parse(out.stdout) as { status: string; onChainTaskId: number };
    expect(mission.status).toBe('OPEN');
    expect((await escrowTask(server, mission.onChainTaskId))[1]).toBe(4n * USDC);
    expect(await usdcBalance(server, address)).toBe(0n);
  });
});
