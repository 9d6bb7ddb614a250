// Post and pay through the real route handlers (docs/api.md#post-and-pay): an unfunded mission funded by the
// client's one EIP-3009 signature, relayed on anvil, or by the wallet's own approve + createTask (the fallback:
// POST …/funding { onChainTaskId }).
import { type Hex, type PrivateKeyAccount, parseEventLogs } from 'viem';
import { GET as fundingGet, POST as fundingPost } from '@/app/api/missions/[id]/funding/route';
import { mockUsdcArtifact, taskEscrowV5Artifact } from '@/lib/chain/artifacts';
import { fund, publicClient, walletOf } from './chain';
import { call } from './http';

/** The client's one signature over the funding's typed data, posted: relayed and mined before the answer. */
export async function signAndFund(wallet: PrivateKeyAccount, token: string, missionId: string) {
  const read = await call(fundingGet, { token, params: { id: missionId } });
  if (read.status !== 200) throw new Error(`funding: ${read.status} ${JSON.stringify(read.body)}`);
  const t = read.body.typedData;
  const m = t.message as Record<string, string>;
  const signature = await wallet.signTypedData({
    domain: t.domain,
    types: t.types,
    primaryType: 'ReceiveWithAuthorization',
    message: { ...m, value: BigInt(m.value!), validAfter: BigInt(m.validAfter!), validBefore: BigInt(m.validBefore!) },
  } as never);
  return call(fundingPost, { token, params: { id: missionId }, body: { signature } });
}

/**
 * The wallet fallback (docs/api.md#post-and-pay, item 4): the client's wallet (given ETH for gas) approves the
 * escrow and calls createTask itself with the terms the funding GET names, then posts the task's id.
 */
export async function fundWithOwnTask(wallet: PrivateKeyAccount, token: string, missionId: string) {
  const read = await call(fundingGet, { token, params: { id: missionId } });
  if (read.status !== 200) throw new Error(`funding: ${read.status} ${JSON.stringify(read.body)}`);
  const terms = read.body as { escrow: Hex; token: Hex; ref: Hex; expiresAt: string; amount: string };
  await fund(wallet.address);
  const w = walletOf(wallet);
  const amount = BigInt(terms.amount);
  await publicClient().waitForTransactionReceipt({
    hash: await w.writeContract({
      address: terms.token,
      abi: mockUsdcArtifact.abi,
      functionName: 'approve',
      args: [terms.escrow, amount],
    }),
  });
  const receipt = await publicClient().waitForTransactionReceipt({
    hash: await w.writeContract({
      address: terms.escrow,
      abi: taskEscrowV5Artifact.abi,
      functionName: 'createTask',
      args: [amount, terms.ref, BigInt(terms.expiresAt)],
    }),
  });
  const [created] = parseEventLogs({ abi: taskEscrowV5Artifact.abi, eventName: 'TaskCreated', logs: receipt.logs });
  const taskId = Number(created!.args.taskId);
  return {
    taskId,
    answer: await call(fundingPost, { token, params: { id: missionId }, body: { onChainTaskId: taskId } }),
  };
}
