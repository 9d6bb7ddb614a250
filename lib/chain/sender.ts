// Sends a backend transaction so that a crash or a second instance can never repeat or collide
// with it (docs/api.md#settlements): one sender per key across all instances (a lease in the shared KV),
// the nonce read from the node under that lease, and the hash written down before it leaves.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { type Hex, keccak256, type PublicClient, type WalletClient } from 'viem';
import { DependencyDown } from '../errors';
import { getKv } from '../kv';

// Longer than a send takes (estimate, fees, broadcast: a few RPC calls of ≤ 5 s each); a holder
// that crashed frees the key when it runs out.
const LEASE_MS = 30_000;
const WAIT_MS = 20_000;
const POLL_MS = 25;

export async function sendSerialized(
  publicClient: PublicClient,
  walletClient: WalletClient,
  call: { to: Hex; data: Hex },
  record: (hash: Hex) => Promise<void>,
): Promise<Hex> {
  const account = walletClient.account!;
  const kv = getKv();
  const lease = `sender:${walletClient.chain?.id}:${account.address.toLowerCase()}`;
  const owner = randomUUID();
  const deadline = Date.now() + WAIT_MS;
  while (!(await kv.acquire(lease, owner, LEASE_MS))) {
    if (Date.now() > deadline) throw new DependencyDown('chain', new Error(`sender ${account.address} busy`));
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    // 'pending' counts what this key already has in the node's mempool, sent by any instance.
    const nonce = await publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' });
    const request = await walletClient.prepareTransactionRequest({
      ...call,
      account,
      chain: walletClient.chain,
      nonce,
    });
    const signed = await walletClient.signTransaction({ ...request, account, chain: walletClient.chain } as Parameters<
      WalletClient['signTransaction']
    >[0]);
    const hash = keccak256(signed);
    await record(hash);
    await walletClient.sendRawTransaction({ serializedTransaction: signed });
    return hash;
  } finally {
    await kv.release(lease, owner);
  }
}

/** Where a recorded transaction stands: mined (with its receipt), waiting in the mempool, or unknown to the node. */
export async function lookupTransaction(publicClient: PublicClient, hash: Hex) {
  const receipt = await publicClient.getTransactionReceipt({ hash }).catch(() => undefined);
  if (receipt) return { state: 'mined' as const, receipt };
  const pending = await publicClient.getTransaction({ hash }).catch(() => undefined);
  return { state: pending ? ('pending' as const) : ('unknown' as const) };
}
