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
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TaskmarketError } from '../../sdk/src/index';

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

type Funding = {
  typedData: { domain: Record<string, unknown>; types: Record<string, unknown>; message: Record<string, string> };
};

/**
 * A real HTTP server between the SDK and the production server that passes everything through but
 * rewrites the funding's typed data with `tamper`, as a compromised server or a hostile proxy would.
 */
async function tamperingProxy(upstream: string) {
  const seen: string[] = [];
  let tamper: ((funding: Funding) => void) | undefined;
  const proxy = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name)),
    ) as Record<string, string>;
    seen.push(`${request.method} ${request.url}`);
    const passed = await fetch(new URL(request.url!, upstream), {
      method: request.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    let body = await passed.text();
    if (tamper && request.method === 'GET' && /\/funding$/.test(request.url!) && passed.status === 200) {
      const funding = JSON.parse(body) as Funding;
      tamper(funding);
      body = JSON.stringify(funding);
    }
    response.writeHead(passed.status, { 'content-type': passed.headers.get('content-type') ?? 'application/json' });
    response.end(body);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    seen,
    set: (next: ((funding: Funding) => void) | undefined) => void (tamper = next),
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

describe("post and pay (SDK) refuses to sign typed data that is not the mission's", () => {
  test('another escrow, amount, signer, chain, token, type or window: refused, nothing signed or sent', async () => {
    const account = await usdcOnly(2n * USDC);
    const proxy = await tamperingProxy(server.url);
    try {
      // Signed in straight at the server (SIWE names its domain); then every call goes through the proxy.
      const { token } = await sdkClient(server, account).signIn();
      const tm = sdkClient(server, account, { baseUrl: proxy.url, rpcUrl: undefined, token });
      const posted = await tm.missions.create({
        title: 'Funded through a hostile proxy',
        description: 'Tampered typed data',
        reward: (2n * USDC).toString(),
        deadline: deadlineIn(2),
      });
      const stranger = privateKeyToAccount(generatePrivateKey()).address;
      const now = Math.floor(Date.now() / 1000);
      const tamperings: [string, (f: Funding) => void][] = [
        ['message.to', (f) => void (f.typedData.message.to = stranger)],
        ['message.value', (f) => void (f.typedData.message.value = (20n * USDC).toString())],
        ['message.from', (f) => void (f.typedData.message.from = stranger)],
        ['domain.chainId', (f) => void (f.typedData.domain.chainId = Number(f.typedData.domain.chainId) + 1)],
        ['domain.verifyingContract', (f) => void (f.typedData.domain.verifyingContract = stranger)],
        ['message.validBefore', (f) => void (f.typedData.message.validBefore = String(now + 30 * 86_400))],
        ['message.validAfter', (f) => void (f.typedData.message.validAfter = String(now + 86_400))],
        [
          'types',
          (f) =>
            void (f.typedData.types = {
              ReceiveWithAuthorization: [
                { name: 'from', type: 'address' },
                { name: 'to', type: 'address' },
                { name: 'value', type: 'uint256' },
              ],
            }),
        ],
      ];
      for (const [field, tamper] of tamperings) {
        proxy.set(tamper);
        const refused = await tm.missions.fund(posted.id).catch((error: unknown) => error);
        expect(refused, field).toBeInstanceOf(TaskmarketError);
        expect((refused as TaskmarketError).error).toMatch(/^Refused to sign/);
        expect((refused as TaskmarketError).details?.join('\n'), field).toContain(field);
      }
      expect(proxy.seen.filter((line) => line.startsWith('POST') && line.endsWith('/funding'))).toEqual([]);
      expect((await tm.missions.get(posted.id)).status).toBe('AWAITING_FUNDING');
      // The same proxy, honest: the typed data checks out and funds the mission.
      proxy.set(undefined);
      expect(await tm.missions.fund(posted.id)).toMatchObject({ status: 'funded' });
    } finally {
      await proxy.close();
    }
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
