// docs/api.md#the-relayers-nonces: one key's transactions from two instances (two senders sharing
// the KV's lease, as two processes do) take every nonce once, in order, none skipped, and an RPC
// outage in the middle of a batch — one broadcast the node took whose answer was lost, then every
// call refused for a while — loses nothing and sends nothing twice: each send either left with its
// hash recorded first, or failed before its record; the sweep's check (the recorded hash mined,
// pending or unknown to the node) then sends again exactly what never reached the node.
import { createPublicClient, createWalletClient, type Hex, http, keccak256, type WalletClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { describe, expect, test } from 'vitest';
import { isRpcUnreachable } from '@/lib/chain/rpc-errors';
import { lookupTransaction, sendSerialized } from '@/lib/chain/sender';
import { fund, publicClient as directClient } from '../support/chain';
import { useTestEnvironment } from '../support/environment';
import { workerRpcUrl } from '../support/ports';
import { type ProxyAnswer, startRpcProxy } from '../support/rpc-proxy';

useTestEnvironment({});

const SENDS = 40;
const randomAddress = () => privateKeyToAccount(generatePrivateKey()).address;

describe("the relayer's nonces", () => {
  test(
    'behavior: two instances sending through one key take each nonce once, in order; an RPC outage ' +
      'in the middle of a batch loses no send and repeats none',
    async () => {
      const key = generatePrivateKey();
      const account = privateKeyToAccount(key);
      await fund(account.address, '100');
      const start = await directClient().getBlockNumber();

      // The outage: the 12th broadcast reaches the node but its answer is lost, then for 400 ms
      // every call is refused — while both instances have sends queued.
      let broadcasts = 0;
      let down = false;
      let lost: string | undefined;
      const proxy = await startRpcProxy(workerRpcUrl(), (method, params): ProxyAnswer | undefined => {
        if (down) return { httpStatus: 503 };
        if (method !== 'eth_sendRawTransaction') return undefined;
        broadcasts += 1;
        if (broadcasts !== 12) return undefined;
        lost = params[0] as string;
        down = true;
        setTimeout(() => {
          down = false;
        }, 400);
        return 'lost';
      });
      const transport = http(proxy.url, { retryCount: 0, timeout: 5_000 });
      const reader = createPublicClient({ chain: foundry, transport, pollingInterval: 50 });
      // Two instances: two clients of the same key, each with its own line, sharing only the KV.
      const instances: WalletClient[] = [0, 1].map(() => createWalletClient({ chain: foundry, transport, account }));

      const recorded = new Map<Hex, Hex[]>();
      const send = (to: Hex, via: WalletClient) =>
        sendSerialized(reader as never, via, { to, data: '0x' }, async (hash) => {
          recorded.set(to, [...(recorded.get(to) ?? []), hash]);
        });
      const targets = Array.from({ length: SENDS }, randomAddress);
      try {
        const outcomes = await Promise.allSettled(targets.map((to, i) => send(to, instances[i % 2]!)));
        const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
        expect(lost).toBeDefined();
        expect(failures.length).toBeGreaterThan(0);
        for (const failure of failures) expect(isRpcUnreachable(failure)).toBe(true);

        // The sweep's part, until every send is mined: a recorded hash the node has is waited for; one
        // it never saw (or a send that failed before its record) is sent again.
        for (let round = 0; round < 20; round += 1) {
          let open = 0;
          for (const to of targets) {
            const hashes = recorded.get(to) ?? [];
            const states = await Promise.all(hashes.map((h) => lookupTransaction(directClient() as never, h)));
            if (states.some((s) => s.state === 'mined')) continue;
            open += 1;
            if (states.some((s) => s.state === 'pending')) continue;
            await send(to, instances[round % 2]!).catch((error: unknown) => {
              if (!isRpcUnreachable(error)) throw error;
            });
          }
          if (open === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      } finally {
        await proxy.close();
      }

      // What the chain holds from this key: one transaction to each target, nonces 0..SENDS-1.
      const client = directClient();
      const latest = await client.getBlockNumber();
      const mined: { to: string; nonce: number; hash: Hex }[] = [];
      for (let n = start + 1n; n <= latest; n += 1n) {
        const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
        for (const tx of block.transactions)
          if (tx.from.toLowerCase() === account.address.toLowerCase())
            mined.push({ to: tx.to!.toLowerCase(), nonce: tx.nonce, hash: tx.hash });
      }
      expect(mined.map((t) => t.nonce).sort((a, b) => a - b)).toEqual(Array.from({ length: SENDS }, (_, i) => i));
      expect(mined.map((t) => t.to).sort()).toEqual(targets.map((t) => t.toLowerCase()).sort());
      expect(await client.getTransactionCount({ address: account.address, blockTag: 'pending' })).toBe(SENDS);
      // The broadcast whose answer was lost was mined once, as itself: never sent again.
      expect(mined.filter((t) => t.hash === keccak256(lost as Hex))).toHaveLength(1);
    },
  );
});
