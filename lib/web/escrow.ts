// Funding missions from the client's own wallet (docs/api.md#escrow): approve the reward token,
// then TaskEscrow.createTask (or topUp for a bump), waiting for each receipt. The task id comes
// from the TaskCreated event, the contract's own record, not from a guess at the counter.
import {
  type Account,
  type Address,
  type Chain,
  type Client,
  erc20Abi,
  type Hex,
  parseEventLogs,
  type Transport,
} from 'viem';
import { readContract, waitForTransactionReceipt, writeContract } from 'viem/actions';
// The ABI alone, never lib/chain/artifacts.ts: this runs in the browser, which deploys nothing.
import { taskEscrowAbi as escrowAbi } from '../chain/abis';

export type WalletClient = Client<Transport, Chain, Account>;
export type FundingStep = 'approve' | 'fund';

// Any ERC-20: the reward token is whichever the server names, not only the local MockUSDC.
const tokenAbi = erc20Abi;

async function confirm(client: WalletClient, hash: Hex, what: string) {
  const receipt = await waitForTransactionReceipt(client, { hash });
  if (receipt.status !== 'success') throw new Error(`The ${what} transaction was reverted (${hash}).`);
  return receipt;
}

/** Lets the escrow pull `amount`, unless an earlier approval already covers it. */
async function ensureAllowance(client: WalletClient, token: Address, escrow: Address, amount: bigint) {
  const owner = client.account.address;
  const [balance, allowance] = await Promise.all([
    readContract(client, { address: token, abi: tokenAbi, functionName: 'balanceOf', args: [owner] }),
    readContract(client, { address: token, abi: tokenAbi, functionName: 'allowance', args: [owner, escrow] }),
  ]);
  if (balance < amount) throw new Error('Your wallet does not hold enough of the reward token for this amount.');
  if (allowance >= amount) return;
  const hash = await writeContract(client, {
    address: token,
    abi: tokenAbi,
    functionName: 'approve',
    args: [escrow, amount],
  });
  await confirm(client, hash, 'approval');
}

export async function fundNewTask(
  client: WalletClient,
  contracts: { escrow: Address; token: Address },
  task: { reward: bigint; ref: Hex; expiresAt: bigint },
  onStep: (step: FundingStep) => void,
): Promise<{ taskId: number; txHash: Hex }> {
  const { reward, ref, expiresAt } = task;
  onStep('approve');
  await ensureAllowance(client, contracts.token, contracts.escrow, reward);
  onStep('fund');
  const txHash = await writeContract(client, {
    address: contracts.escrow,
    abi: escrowAbi,
    functionName: 'createTask',
    args: [reward, ref, expiresAt],
  });
  const receipt = await confirm(client, txHash, 'escrow');
  const [created] = parseEventLogs({ abi: escrowAbi, eventName: 'TaskCreated', logs: receipt.logs });
  if (!created) throw new Error('The escrow transaction did not report a task id.');
  return { taskId: Number(created.args.taskId), txHash };
}

export async function topUpTask(
  client: WalletClient,
  contracts: { escrow: Address; token: Address },
  taskId: number,
  amount: bigint,
  onStep: (step: FundingStep) => void,
): Promise<Hex> {
  onStep('approve');
  await ensureAllowance(client, contracts.token, contracts.escrow, amount);
  onStep('fund');
  const hash = await writeContract(client, {
    address: contracts.escrow,
    abi: escrowAbi,
    functionName: 'topUp',
    args: [BigInt(taskId), amount],
  });
  await confirm(client, hash, 'top-up');
  return hash;
}

export function tokenBalance(client: WalletClient, token: Address): Promise<bigint> {
  return readContract(client, {
    address: token,
    abi: tokenAbi,
    functionName: 'balanceOf',
    args: [client.account.address],
  });
}

/** 32 random bytes: the task's `ref` and the create request's Idempotency-Key. */
export function randomRef(): Hex {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
