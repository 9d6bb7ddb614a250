// `npm run bench:relay` (docs/performance.md#relayed-funding): RELAY_FUNDINGS missions
// funded with one signature each, relayed through one relayer key by two production instances on
// PostgreSQL + Redis + anvil (automine), started at RELAY_RATE a second (open loop), each poster
// through the SDK as an integrator would (missions.fund: read the typed data, sign, POST, wait for
// OPEN). Reports the rate missions turned OPEN, and checks the key's transactions on the chain:
// nonces 0..n-1, each once, one createTaskWithAuthorization a mission. Bound: ≥ 10 missions/s.
//
//   RELAY_FUNDINGS (300)  RELAY_RATE (15: fundings started a second)  RELAY_DIST_DIR (.next: the build)
import { createPublicClient, createWalletClient, type Hex, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { ANVIL_KEYS, freePort } from '../../lib/chain/anvil-node';
import { mockUsdcArtifact } from '../../lib/chain/artifacts';
import { startLocalChain } from '../../lib/chain/local-chain';
import { productionEnv, SIWE_DOMAIN, startPair } from '../../tests/support/faults/instances';
import { createClient } from '../../sdk/src/index';
import { balancer } from '../soak/balancer';
import { ensureBuild, freshDatabase } from './server';

const fundings = Number(process.env.RELAY_FUNDINGS ?? 300);
const rate = Number(process.env.RELAY_RATE ?? 15);
const distDir = process.env.RELAY_DIST_DIR;
const BOUND = 10;
const adminUrl = process.env.RELAY_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.RELAY_REDIS_URL ?? 'redis://127.0.0.1:6379/7';
const PUBLIC_ORIGIN = `http://${SIWE_DOMAIN}`;
// tests/support/production-server.ts chainSettings: the relayer's own key.
const RELAYER = privateKeyToAccount(ANVIL_KEYS[6]!).address;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)] ?? NaN;

async function main() {
  if (!distDir) ensureBuild();
  const chain = await startLocalChain({ port: await freePort() });
  const databaseUrl = await freshDatabase(adminUrl, 'bench_relay');
  const env = productionEnv(
    { databaseUrl, redisUrl, chain },
    {
      KV_PREFIX: `relay:${Date.now()}:`,
      TRUST_PROXY: '1',
      RELAY_BUDGET_PER_HOUR: String(Math.max(1_000, 2 * fundings)),
      WRITE_RATE_LIMIT_PER_MINUTE: '100000',
      ...(distDir && { NEXT_DIST_DIR: distDir }),
    },
  );
  const pair = await startPair(env);
  try {
    for (const instance of pair.both) await fetch(`${instance.url}/api/health`);
    const lb = balancer(pair.both.map((i) => i.url));
    const transport = http(chain.rpcUrl);
    const reader = createPublicClient({ chain: foundry, transport, pollingInterval: 50 });
    const faucet = createWalletClient({ chain: foundry, transport, account: privateKeyToAccount(ANVIL_KEYS[1]!) });

    // Posters: a wallet holding the reward in USDC and no ETH each, signed in, its mission AWAITING_FUNDING.
    console.log(`preparing ${fundings} posters and their missions …`);
    const accounts = Array.from({ length: fundings }, () => privateKeyToAccount(generatePrivateKey()));
    let last: Hex | undefined;
    for (const account of accounts)
      last = await faucet.writeContract({
        address: chain.contracts.rewardToken as Hex,
        abi: mockUsdcArtifact.abi,
        functionName: 'mint',
        args: [account.address, 10_000_000n],
      });
    if (last) await reader.waitForTransactionReceipt({ hash: last });
    const posters: { tm: ReturnType<typeof createClient>; id: string }[] = [];
    for (let at = 0; at < accounts.length; at += 20) {
      posters.push(
        ...(await Promise.all(
          accounts.slice(at, at + 20).map(async (account, i) => {
            const n = at + i;
            const tm = createClient({
              baseUrl: PUBLIC_ORIGIN,
              account,
              maxRetries: 0,
              fetch: lb.fetchFor(`10.9.${n >> 8}.${n & 255}`),
            });
            await tm.signIn();
            const mission = await tm.missions.create({
              title: `Relay bench ${n}`,
              description: 'A mission of the relay benchmark.',
              category: 'data',
              tags: ['bench'],
              reward: '5000000',
              deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
            });
            return { tm, id: mission.id };
          }),
        )),
      );
    }
    const fromBlock = (await reader.getBlockNumber()) + 1n;
    const startNonce = await reader.getTransactionCount({ address: RELAYER });

    // The fundings, started on a steady schedule whatever the answers' pace.
    console.log(`funding ${fundings} missions, started at ${rate}/s …`);
    const started = Date.now();
    const openAt: number[] = [];
    const failures: string[] = [];
    const runs = posters.map(async ({ tm, id }, i) => {
      await sleep(Math.max(0, started + (i * 1000) / rate - Date.now()));
      const at = Date.now();
      try {
        const state = await tm.missions.fund(id, { timeoutMs: 120_000 });
        if (state.status !== 'funded') throw new Error(`ended ${state.status}`);
        openAt.push(Date.now() - started);
        return Date.now() - at;
      } catch (error) {
        const e = error as { status?: number; error?: string; message?: string };
        failures.push(`${e.status ?? ''} ${e.error ?? e.message}`);
        return NaN;
      }
    });
    const took = (await Promise.all(runs)).filter(Number.isFinite);
    // From the first funding started to the last mission OPEN: the schedule itself caps it at RELAY_RATE.
    const span = Math.max(...openAt) / 1000;
    const achieved = openAt.length / span;

    // The key's transactions: nonces in order, each once; one relay a funded mission.
    const latest = await reader.getBlockNumber();
    const nonces: number[] = [];
    for (let n = fromBlock; n <= latest; n += 1n) {
      const block = await reader.getBlock({ blockNumber: n, includeTransactions: true });
      for (const tx of block.transactions) if (tx.from.toLowerCase() === RELAYER.toLowerCase()) nonces.push(tx.nonce);
    }
    nonces.sort((a, b) => a - b);
    const contiguous = nonces.every((nonce, i) => nonce === startNonce + i);
    const pending = await reader.getTransactionCount({ address: RELAYER, blockTag: 'pending' });
    const noncesOk = contiguous && pending === startNonce + nonces.length && nonces.length === openAt.length;
    const pass = failures.length === 0 && noncesOk && achieved >= BOUND;
    console.log(
      `each funding, signature to OPEN: p50 ${percentile(took, 0.5).toFixed(0)} ms, p95 ` +
        `${percentile(took, 0.95).toFixed(0)} ms; relayer transactions ${nonces.length}, nonces ` +
        `${startNonce}..${startNonce + nonces.length - 1} ` +
        `${contiguous ? 'contiguous, each once' : 'NOT contiguous'}, ` +
        `pending ${pending}${failures.length ? `; failures: ${failures.slice(0, 5).join('; ')}` : ''}`,
    );
    console.log(
      `RELAY ${pass ? 'PASS' : 'FAIL'} (two instances, one key, anvil): ${openAt.length}/${fundings} funded ` +
        `at ${achieved.toFixed(1)} missions/s over ${span.toFixed(1)} s (started at ${rate}/s; bound ≥ ${BOUND}/s); ` +
        `nonces ${noncesOk ? 'ok' : 'WRONG'}`,
    );
    process.exitCode = pass ? 0 : 1;
  } finally {
    await pair.stop();
    await chain.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
