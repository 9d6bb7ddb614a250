// The chain's RPC down (docs/api.md#becoming-an-agent, #sweep): becoming an agent still succeeds with a
// PENDING passport, and once the chain is back — the same anvil, restarted from its saved state —
// the sweep, run by both instances at once, mints the passport exactly once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createPublicClient, http, type Hex } from 'viem';
import { foundry } from 'viem/chains';
import { passportArtifact } from '@/lib/chain/artifacts';
import { startLocalChain, type LocalChain } from '@/lib/chain/local-chain';
import { expectDocumentedShape, request, signIn, sweep } from '../support/faults/client';
import { loggedFailures, productionEnv, startPair, type Pair } from '../support/faults/instances';
import { freePort } from '@/lib/chain/anvil-node';
import { freshMachineDatabase } from '../support/faults/services';

const MACHINE_REDIS = 'redis://127.0.0.1:6379';

let stateDir: string;
let port: number;
let chain: LocalChain | undefined;
let database: Awaited<ReturnType<typeof freshMachineDatabase>>;
let pair: Pair;

/** This file's anvil on its fixed port, keeping its state (and the deployment record) across restarts. */
const startChain = () =>
  startLocalChain({
    port,
    statePath: join(stateDir, 'anvil-state.json'),
    recordFile: join(stateDir, 'contracts.json'),
  });

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'taskmarket-faults-chain-'));
  port = await freePort();
  [chain, database] = await Promise.all([startChain(), freshMachineDatabase()]);
  pair = await startPair(
    productionEnv({ databaseUrl: database.url, redisUrl: MACHINE_REDIS, chain }, { MINT_WAIT_MS: '5000' }),
  );
});

afterAll(async () => {
  await pair?.stop();
  await chain?.stop();
  await database?.drop();
  rmSync(stateDir, { recursive: true, force: true });
});

async function passportOnChain(holder: Hex) {
  const client = createPublicClient({ chain: foundry, transport: http(chain!.rpcUrl) });
  const read = (functionName: 'balanceOf' | 'passportOf') =>
    client.readContract({
      address: chain!.contracts.passport,
      abi: passportArtifact.abi,
      functionName,
      args: [holder],
    });
  return { balance: await read('balanceOf'), tokenId: await read('passportOf') };
}

test(
  'behavior: with the RPC down register-agent answers PENDING, and after the chain ' +
    'returns the sweep of both instances mints once',
  async () => {
    const { account, token } = await signIn(pair.a, pair.b);
    const contracts = chain!.contracts;
    await chain!.stop();
    chain = undefined;

    const registered = await request(pair.a, '/api/auth/register-agent', { method: 'POST', token });
    expect(registered.status).toBe(200);
    expect(registered.body.user.role).toBe('AGENT');
    expect(registered.body.passport).toMatchObject({ status: 'PENDING', tokenId: null, txHash: null });
    // Asking again on the other instance changes nothing, and the sweep cannot mint yet.
    expect((await request(pair.b, '/api/auth/register-agent', { method: 'POST', token })).body.passport.status).toBe(
      'PENDING',
    );
    expect(await sweep(pair.b)).toMatchObject({ status: 200, body: { passports: { minted: 0 } } });
    const agentToken = registered.body.token as string;
    expect((await request(pair.b, '/api/auth/me', { token: agentToken })).body.passport.status).toBe('PENDING');

    chain = await startChain();
    expect(chain.contracts).toEqual(contracts);

    const sweeps = await Promise.all([sweep(pair.a), sweep(pair.b), sweep(pair.a), sweep(pair.b)]);
    sweeps.forEach(expectDocumentedShape);
    expect(sweeps.map((s) => s.status)).toEqual([200, 200, 200, 200]);
    expect(sweeps.reduce((sum, s) => sum + s.body.passports.minted, 0)).toBe(1);

    const onChain = await passportOnChain(account.address);
    expect(onChain.balance).toBe(1n);
    for (const instance of pair.both) {
      const me = await request(instance, '/api/auth/me', { token: agentToken });
      expect(me.body.passport).toMatchObject({ status: 'MINTED', tokenId: onChain.tokenId.toString() });
    }
    // Later sweeps find nothing left to do.
    expect(await sweep(pair.a)).toMatchObject({ status: 200, body: { passports: { minted: 0 } } });
    expect((await passportOnChain(account.address)).balance).toBe(1n);
    expect([...loggedFailures(pair.a), ...loggedFailures(pair.b)]).toEqual([]);
  },
);
