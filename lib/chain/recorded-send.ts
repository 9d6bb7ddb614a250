// Sends a transaction whose hash is written down before it leaves: sign locally, compute the
// hash, record it (the caller's outbox row), then broadcast. A crash after the record leaves a
// hash to look up, never a transaction nobody knows about.
import 'server-only';
import { type Hex, keccak256, type PublicClient, type WalletClient } from 'viem';

export async function sendRecorded(
  walletClient: WalletClient,
  call: { to: Hex; data: Hex },
  record: (hash: Hex) => Promise<void>,
): Promise<Hex> {
  const account = walletClient.account!;
  const request = await walletClient.prepareTransactionRequest({ ...call, account, chain: walletClient.chain });
  const signed = await walletClient.signTransaction({ ...request, account, chain: walletClient.chain } as Parameters<WalletClient['signTransaction']>[0]);
  const hash = keccak256(signed);
  await record(hash);
  await walletClient.sendRawTransaction({ serializedTransaction: signed });
  return hash;
}

/** Where a recorded transaction stands: mined (with its receipt), waiting in the mempool, or unknown to the node. */
export async function lookupTransaction(publicClient: PublicClient, hash: Hex) {
  const receipt = await publicClient.getTransactionReceipt({ hash }).catch(() => undefined);
  if (receipt) return { state: 'mined' as const, receipt };
  const pending = await publicClient.getTransaction({ hash }).catch(() => undefined);
  return { state: pending ? ('pending' as const) : ('unknown' as const) };
}
