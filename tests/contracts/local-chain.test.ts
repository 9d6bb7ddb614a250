// The local chain of `npm run dev` and the tests (lib/chain/local-chain.ts): escrow v5 and, after our
// contracts, the ERC-8004 Identity and Reputation registries (contracts/erc8004/README.md), recorded with the
// build they came from; a restart on the same state reuses them, a record of another build is redeployed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { createPublicClient, getAddress, http } from 'viem';
import { foundry } from 'viem/chains';
import { reputationRegistryArtifact, taskEscrowV5Artifact } from '@/lib/chain/artifacts';
import { type LocalChain, startLocalChain } from '@/lib/chain/local-chain';

let dir: string | undefined;
let running: LocalChain | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('deploys escrow v5 and the ERC-8004 registries, records them, and reuses the record on ' +
  'the same state', async () => {
  dir = mkdtempSync(join(tmpdir(), 'taskmarket-local-chain-'));
  const options = { statePath: join(dir, 'anvil-state.json'), recordFile: join(dir, 'contracts.json') };
  running = await startLocalChain(options);
  const { contracts } = running;
  expect(Object.keys(contracts).sort()).toEqual([
    'escrow',
    'identityRegistry',
    'passport',
    'reputationRegistry',
    'rewardToken',
  ]);
  const reader = createPublicClient({ chain: foundry, transport: http(running.rpcUrl) });
  expect(
    await reader.readContract({
      address: contracts.escrow,
      abi: taskEscrowV5Artifact.abi,
      functionName: 'FUNDING_MANDATE_TYPEHASH',
    }),
  ).toMatch(/^0x[0-9a-f]{64}$/);
  expect(
    await reader.readContract({
      address: contracts.reputationRegistry,
      abi: reputationRegistryArtifact.abi,
      functionName: 'getIdentityRegistry',
    }),
  ).toBe(getAddress(contracts.identityRegistry));
  const record = JSON.parse(readFileSync(options.recordFile, 'utf8')) as Record<string, string>;
  expect(record).toMatchObject(contracts);
  expect(record.build).toMatch(/^0x[0-9a-f]{64}$/);
  await running.stop();

  running = await startLocalChain(options);
  expect(running.contracts).toEqual(contracts);
  await running.stop();

  // A record of other contracts (an older checkout's) is not reused: everything is deployed afresh.
  writeFileSync(options.recordFile, JSON.stringify({ ...record, build: '0x00' }));
  running = await startLocalChain(options);
  expect(running.contracts.escrow).not.toBe(contracts.escrow);
  expect(running.contracts.identityRegistry).not.toBe(contracts.identityRegistry);
}, 60_000);
