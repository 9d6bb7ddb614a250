// Direct chain access for the tests: give a wallet reward tokens, top up a task, read balances and tasks.
import { createPublicClient, createWalletClient, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { mockUsdcArtifact, taskEscrowArtifact } from '../../../lib/chain/artifacts';
import { e2e } from './e2e-env';

const publicClient = () => createPublicClient({ chain: foundry, transport: http(e2e.rpcUrl) });

/** MockUSDC lets anyone mint (contracts/MockUSDC.sol): fund a test client's wallet. */
export async function mintRewardToken(payerKey: Hex, to: Address, amount: bigint): Promise<void> {
  const wallet = createWalletClient({
    chain: foundry,
    transport: http(e2e.rpcUrl),
    account: privateKeyToAccount(payerKey),
  });
  const hash = await wallet.writeContract({
    address: e2e.rewardToken,
    abi: mockUsdcArtifact.abi,
    functionName: 'mint',
    args: [to, amount],
  });
  await publicClient().waitForTransactionReceipt({ hash });
}

/** The task's client adds `amount` to its escrow task straight on the chain, as a wallet can without us. */
export async function topUpEscrowTask(clientKey: Hex, taskId: number, amount: bigint): Promise<void> {
  const account = privateKeyToAccount(clientKey);
  const wallet = createWalletClient({ chain: foundry, transport: http(e2e.rpcUrl), account });
  const send = async (hash: Promise<Hex>) => publicClient().waitForTransactionReceipt({ hash: await hash });
  await mintRewardToken(clientKey, account.address, amount);
  await send(
    wallet.writeContract({
      address: e2e.rewardToken,
      abi: mockUsdcArtifact.abi,
      functionName: 'approve',
      args: [e2e.escrow, amount],
    }),
  );
  await send(
    wallet.writeContract({
      address: e2e.escrow,
      abi: taskEscrowArtifact.abi,
      functionName: 'topUp',
      args: [BigInt(taskId), amount],
    }),
  );
}

export function rewardTokenBalance(owner: Address): Promise<bigint> {
  return publicClient().readContract({
    address: e2e.rewardToken,
    abi: mockUsdcArtifact.abi,
    functionName: 'balanceOf',
    args: [owner],
  });
}

export async function escrowTask(taskId: number) {
  const [client, amount, state] = await publicClient().readContract({
    address: e2e.escrow,
    abi: taskEscrowArtifact.abi,
    functionName: 'tasks',
    args: [BigInt(taskId)],
  });
  return { client, amount, state };
}
