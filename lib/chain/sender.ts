// Sends a backend transaction so that a crash or a second instance can never repeat or collide
// with it (docs/api.md#settlements): one sender per key across all instances (a lease in the shared KV),
// the nonce read from the node under that lease, and the hash written down before it leaves.
//
// A lease per key, held for a batch (docs/api.md#the-relayers-nonces): what does not depend on the
// nonce — the estimate (a call that cannot succeed fails there, before anything is recorded), fees,
// type — is asked before the queue; each process then keeps one line per key, and the one sender of
// that line takes the lease, reads the key's next nonce from the node once ('pending': what any
// instance sent), and sends what is queued back to back, nonce after nonce: sign, record the hash,
// broadcast. A send whose broadcast fails ends the batch (did the node take it? the next batch asks
// the node again), so no nonce is used twice or skipped; a record that fails uses no nonce. Issue 54:
// one lease a transaction (and every waiter polling it) held one key near its round trips' pace.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { type Hex, keccak256, type PublicClient, type WalletClient } from 'viem';
import { DependencyDown } from '../errors';
import { getKv } from '../kv';

// Longer than a batch takes (BATCH_MS, then at most one send's RPC calls of ≤ 5 s each); a holder
// that crashed frees the key when it runs out.
const LEASE_MS = 30_000;
// A send waits at most this long in its line for the key.
const WAIT_MS = 20_000;
const POLL_MS = 10;
// One lease sends at most BATCH_MAX transactions, started within BATCH_MS; then the key is let go
// for a moment (2 × POLL_MS), so another instance waiting for it gets its turn.
const BATCH_MAX = 50;
const BATCH_MS = 5_000;

type Prepared = Awaited<ReturnType<WalletClient['prepareTransactionRequest']>>;

interface Send {
  request: Prepared;
  record: (hash: Hex) => Promise<void>;
  deadline: number;
  resolve: (hash: Hex) => void;
  reject: (error: unknown) => void;
}

interface Line {
  sends: Send[];
  sending: boolean;
}

// One line per wallet client: a process holds one client per key (lib/chain/clients.ts).
const lines = new WeakMap<WalletClient, Line>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function sendSerialized(
  publicClient: PublicClient,
  walletClient: WalletClient,
  call: { to: Hex; data: Hex },
  record: (hash: Hex) => Promise<void>,
): Promise<Hex> {
  const account = walletClient.account!;
  const request = await walletClient.prepareTransactionRequest({
    ...call,
    account,
    chain: walletClient.chain,
    parameters: ['chainId', 'fees', 'gas', 'type'],
  });
  let line = lines.get(walletClient);
  if (!line) lines.set(walletClient, (line = { sends: [], sending: false }));
  const queued = line;
  return new Promise<Hex>((resolve, reject) => {
    queued.sends.push({ request, record, deadline: Date.now() + WAIT_MS, resolve, reject });
    void sendLine(publicClient, walletClient, queued);
  });
}

/** The line's one sender: takes the key's lease and sends a batch, while anything is queued. */
async function sendLine(publicClient: PublicClient, walletClient: WalletClient, line: Line): Promise<void> {
  if (line.sending) return;
  line.sending = true;
  const account = walletClient.account!;
  const lease = `sender:${walletClient.chain?.id}:${account.address.toLowerCase()}`;
  const kv = getKv();
  try {
    while (line.sends.length > 0) {
      const owner = randomUUID();
      try {
        while (!(await kv.acquire(lease, owner, LEASE_MS))) {
          expire(line, account.address);
          if (line.sends.length === 0) return;
          await sleep(POLL_MS);
        }
      } catch (error) {
        failAll(line, error);
        return;
      }
      try {
        await sendBatch(publicClient, walletClient, line);
      } finally {
        await kv.release(lease, owner).catch(() => undefined);
      }
      if (line.sends.length > 0) await sleep(2 * POLL_MS);
    }
  } finally {
    line.sending = false;
  }
}

/** Under the lease: the next nonce from the node, then the queued sends back to back. */
async function sendBatch(publicClient: PublicClient, walletClient: WalletClient, line: Line): Promise<void> {
  const account = walletClient.account!;
  const started = Date.now();
  let nonce: number;
  try {
    // 'pending' counts what this key already has in the node's mempool, sent by any instance.
    nonce = await publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' });
  } catch (error) {
    failAll(line, error);
    return;
  }
  for (let sent = 0; sent < BATCH_MAX && line.sends.length > 0 && Date.now() - started < BATCH_MS; ) {
    const send = line.sends.shift()!;
    let signed: Hex;
    let hash: Hex;
    try {
      signed = await walletClient.signTransaction({
        ...send.request,
        nonce,
        account,
        chain: walletClient.chain,
      } as Parameters<WalletClient['signTransaction']>[0]);
      hash = keccak256(signed);
      await send.record(hash);
    } catch (error) {
      // Nothing left: the nonce is still this key's next.
      send.reject(error);
      continue;
    }
    try {
      await walletClient.sendRawTransaction({ serializedTransaction: signed });
    } catch (error) {
      // Whether the node took it is unknown: the hash is recorded, and the next batch asks the node.
      send.reject(error);
      return;
    }
    nonce += 1;
    sent += 1;
    send.resolve(hash);
  }
}

function expire(line: Line, address: string): void {
  const now = Date.now();
  line.sends = line.sends.filter((send) => {
    if (send.deadline > now) return true;
    send.reject(new DependencyDown('chain', new Error(`sender ${address} busy`)));
    return false;
  });
}

function failAll(line: Line, error: unknown): void {
  for (const send of line.sends.splice(0)) send.reject(error);
}

/** Where a recorded transaction stands: mined (with its receipt), waiting in the mempool, or unknown to the node. */
export async function lookupTransaction(publicClient: PublicClient, hash: Hex) {
  const receipt = await publicClient.getTransactionReceipt({ hash }).catch(() => undefined);
  if (receipt) return { state: 'mined' as const, receipt };
  const pending = await publicClient.getTransaction({ hash }).catch(() => undefined);
  return { state: pending ? ('pending' as const) : ('unknown' as const) };
}
