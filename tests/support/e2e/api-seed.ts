// Missions made without the browser, the way the SDK makes them (bearer token, escrow funded
// from the client's key): for tests that need many missions but are about something else.
import { randomBytes } from 'node:crypto';
import { createPublicClient, createTestClient, createWalletClient, http, parseEventLogs, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { createSiweMessage } from 'viem/siwe';
import { mockUsdcArtifact, taskEscrowArtifact } from '../../../lib/chain/artifacts';
import { e2e } from './e2e-env';

export async function post<T>(path: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(e2e.baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  const data = (await response.json()) as T;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(data)}`);
  return data;
}

export async function signInWithKey(key: Hex): Promise<string> {
  const account = privateKeyToAccount(key);
  const { nonce } = await post<{ nonce: string }>('/api/auth/nonce', { address: account.address });
  const url = new URL(e2e.baseUrl);
  const message = createSiweMessage({
    domain: url.host,
    uri: url.origin,
    address: account.address,
    version: '1',
    chainId: e2e.chainId,
    nonce,
    issuedAt: new Date(),
  });
  const { token } = await post<{ token: string }>('/api/auth/verify', {
    message,
    signature: await account.signMessage({ message }),
  });
  return token;
}

/** Posts `count` funded missions tagged `tag`, rewards 1, 2, … tokens (6 decimals). */
export async function seedFundedMissions(key: Hex, tag: string, count: number): Promise<void> {
  const account = privateKeyToAccount(key);
  const transport = http(e2e.rpcUrl);
  const publicClient = createPublicClient({ chain: foundry, transport });
  const wallet = createWalletClient({ chain: foundry, transport, account });
  const token = await signInWithKey(key);
  const total = BigInt((count * (count + 1)) / 2) * 1_000_000n;
  const send = async (hash: Promise<Hex>) => publicClient.waitForTransactionReceipt({ hash: await hash });
  await send(
    wallet.writeContract({
      address: e2e.rewardToken,
      abi: mockUsdcArtifact.abi,
      functionName: 'mint',
      args: [account.address, total],
    }),
  );
  await send(
    wallet.writeContract({
      address: e2e.rewardToken,
      abi: mockUsdcArtifact.abi,
      functionName: 'approve',
      args: [e2e.escrow, total],
    }),
  );
  for (let i = 1; i <= count; i++) {
    const reward = BigInt(i) * 1_000_000n;
    const ref = `0x${randomBytes(32).toString('hex')}` as Hex;
    // Past the deadline (7 days) with room for every review round and the reclaim grace (docs/api.md#escrow).
    const expiresAt = BigInt(Math.floor(Date.now() / 1000) + 60 * 86_400);
    const receipt = await send(
      wallet.writeContract({
        address: e2e.escrow,
        abi: taskEscrowArtifact.abi,
        functionName: 'createTask',
        args: [reward, ref, expiresAt],
      }),
    );
    const [created] = parseEventLogs({ abi: taskEscrowArtifact.abi, eventName: 'TaskCreated', logs: receipt.logs });
    await post(
      '/api/missions',
      {
        title: `Seeded mission ${i} of ${count}`,
        description: 'A mission for the board pagination test.',
        tags: [tag],
        reward: reward.toString(),
        deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        onChainTaskId: Number(created!.args.taskId),
      },
      token,
    );
  }
}

/** A wallet of the test's own, with gas money (anvil_setBalance) and nothing else. */
export async function freshFundedKey(): Promise<Hex> {
  const key = generatePrivateKey();
  await createTestClient({ chain: foundry, mode: 'anvil', transport: http(e2e.rpcUrl) }).setBalance({
    address: privateKeyToAccount(key).address,
    value: 10n ** 19n,
  });
  return key;
}

/** One funded mission posted by `key` through the API; answers its id. */
export async function postFundedMission(
  key: Hex,
  fields: Record<string, unknown> & { reward: bigint },
): Promise<string> {
  const account = privateKeyToAccount(key);
  const transport = http(e2e.rpcUrl);
  const publicClient = createPublicClient({ chain: foundry, transport });
  const wallet = createWalletClient({ chain: foundry, transport, account });
  const token = await signInWithKey(key);
  const send = async (hash: Promise<Hex>) => publicClient.waitForTransactionReceipt({ hash: await hash });
  await send(
    wallet.writeContract({
      address: e2e.rewardToken,
      abi: mockUsdcArtifact.abi,
      functionName: 'mint',
      args: [account.address, fields.reward],
    }),
  );
  await send(
    wallet.writeContract({
      address: e2e.rewardToken,
      abi: mockUsdcArtifact.abi,
      functionName: 'approve',
      args: [e2e.escrow, fields.reward],
    }),
  );
  const expiresAt = BigInt(Math.floor(Date.now() / 1000) + 60 * 86_400);
  const ref = `0x${randomBytes(32).toString('hex')}` as Hex;
  const receipt = await send(
    wallet.writeContract({
      address: e2e.escrow,
      abi: taskEscrowArtifact.abi,
      functionName: 'createTask',
      args: [fields.reward, ref, expiresAt],
    }),
  );
  const [created] = parseEventLogs({ abi: taskEscrowArtifact.abi, eventName: 'TaskCreated', logs: receipt.logs });
  const mission = await post<{ id: string }>(
    '/api/missions',
    {
      deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      ...fields,
      reward: fields.reward.toString(),
      onChainTaskId: Number(created!.args.taskId),
    },
    token,
  );
  return mission.id;
}
