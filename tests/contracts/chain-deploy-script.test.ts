// `npm run chain:deploy`: deploys with the key from the environment and prints only the addresses.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPublicClient, createWalletClient, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import {
  identityRegistryArtifact,
  passportArtifact,
  reputationRegistryArtifact,
  taskEscrowArtifact,
  taskEscrowV3Artifact,
  taskEscrowV4Artifact,
  taskEscrowV5Artifact,
} from '@/lib/chain/artifacts';
import { deployContracts } from '@/lib/chain/deploy';
import { ANVIL_KEYS, startAnvil, type AnvilNode } from '@/lib/chain/anvil-node';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

let node: AnvilNode;
beforeAll(async () => {
  node = await startAnvil({});
});
afterAll(async () => {
  await node?.stop();
});

const SCRIPT_VARIABLES = [
  'REGISTRAR_PRIVATE_KEY',
  'OWNER_ADDRESS',
  'OPERATOR_ADDRESS',
  'FEE_RECIPIENT_ADDRESS',
  'MAX_FEE_BPS',
];

/** Runs the script as `npm run chain:deploy` does; of its own variables, only `env`'s are set. */
function deployScript(args: string[], env: Record<string, string>) {
  const childEnv = { ...process.env };
  for (const name of SCRIPT_VARIABLES) delete childEnv[name];
  return run(TSX, ['scripts/chain-deploy.ts', ...args], { cwd: ROOT, env: { ...childEnv, ...env } });
}

describe('chain:deploy script', () => {
  test(
    'defaults: prints the addresses, owner and operator as JSON; the deployer owns and ' +
      'operates, the fee ceiling is 1000',
    async () => {
      const registrar = privateKeyToAccount(ANVIL_KEYS[5]);
      const feeRecipient = privateKeyToAccount(ANVIL_KEYS[6]).address;
      const { stdout } = await deployScript(['--rpc', node.rpcUrl], {
        REGISTRAR_PRIVATE_KEY: ANVIL_KEYS[5],
        FEE_RECIPIENT_ADDRESS: feeRecipient,
      });
      const deployed = JSON.parse(stdout) as Record<string, `0x${string}`>;
      // On a local chain (31337) the ERC-8004 registries come along (docs/escrow.md#erc-8004-registries).
      expect(Object.keys(deployed)).toEqual([
        'passport',
        'escrow',
        'rewardToken',
        'identityRegistry',
        'reputationRegistry',
        'owner',
        'operator',
      ]);
      expect(deployed).toMatchObject({
        owner: registrar.address.toLowerCase(),
        operator: registrar.address.toLowerCase(),
      });
      const publicClient = createPublicClient({ chain: foundry, transport: http(node.rpcUrl) });
      const read = { address: deployed.escrow!, abi: taskEscrowArtifact.abi } as const;
      expect(await publicClient.readContract({ ...read, functionName: 'operator' })).toBe(registrar.address);
      expect(await publicClient.readContract({ ...read, functionName: 'owner' })).toBe(registrar.address);
      expect(await publicClient.readContract({ ...read, functionName: 'maxFeeBps' })).toBe(1000);
      expect(await publicClient.readContract({ ...read, functionName: 'feeRecipient' })).toBe(feeRecipient);
      expect(
        await publicClient.readContract({
          address: deployed.identityRegistry!,
          abi: identityRegistryArtifact.abi,
          functionName: 'getVersion',
        }),
      ).toBe('2.0.0');
      expect(
        getAddress(
          await publicClient.readContract({
            address: deployed.reputationRegistry!,
            abi: reputationRegistryArtifact.abi,
            functionName: 'getIdentityRegistry',
          }),
        ),
      ).toBe(getAddress(deployed.identityRegistry!));
      expect(getAddress(await publicClient.readContract({ ...read, functionName: 'token' }))).toBe(
        getAddress(deployed.rewardToken!),
      );
      const role = await publicClient.readContract({
        address: deployed.passport!,
        abi: passportArtifact.abi,
        functionName: 'REGISTRAR_ROLE',
      });
      expect(
        await publicClient.readContract({
          address: deployed.passport!,
          abi: passportArtifact.abi,
          functionName: 'hasRole',
          args: [role, registrar.address],
        }),
      ).toBe(true);
    },
  );

  test(
    'behavior: OWNER_ADDRESS, OPERATOR_ADDRESS and MAX_FEE_BPS set a separate owner (a ' + 'multisig) and operator',
    async () => {
      const owner = privateKeyToAccount(ANVIL_KEYS[7]).address;
      const operator = privateKeyToAccount(ANVIL_KEYS[8]).address;
      const { stdout } = await deployScript(['--rpc', node.rpcUrl], {
        REGISTRAR_PRIVATE_KEY: ANVIL_KEYS[5],
        OWNER_ADDRESS: owner,
        OPERATOR_ADDRESS: operator,
        MAX_FEE_BPS: '500',
      });
      const deployed = JSON.parse(stdout) as Record<string, `0x${string}`>;
      expect(deployed).toMatchObject({ owner: owner.toLowerCase(), operator: operator.toLowerCase() });
      const publicClient = createPublicClient({ chain: foundry, transport: http(node.rpcUrl) });
      const read = { address: deployed.escrow!, abi: taskEscrowArtifact.abi } as const;
      expect(await publicClient.readContract({ ...read, functionName: 'owner' })).toBe(owner);
      expect(await publicClient.readContract({ ...read, functionName: 'operator' })).toBe(operator);
      expect(await publicClient.readContract({ ...read, functionName: 'maxFeeBps' })).toBe(500);
    },
  );

  test('error: a MAX_FEE_BPS above 2000 is refused before anything is deployed', async () => {
    const failure = await deployScript(['--rpc', node.rpcUrl], {
      REGISTRAR_PRIVATE_KEY: ANVIL_KEYS[5],
      MAX_FEE_BPS: '2001',
    }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('MAX_FEE_BPS must be a whole number from 0 to 2000');
  });

  test('refuses to run without REGISTRAR_PRIVATE_KEY and says so', async () => {
    const failure = await deployScript(['--rpc', node.rpcUrl], {}).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stdout).toBe('');
    expect(failure?.stderr).toContain('REGISTRAR_PRIVATE_KEY is required');
  });
});

describe('chain:deploy --upgrade', () => {
  test(
    'deploys a v5 escrow beside a v2 one with its token, owner, operator, fee recipient and ' +
      'ceiling; v2 is untouched',
    async () => {
      const operator = privateKeyToAccount(ANVIL_KEYS[8]).address;
      const feeRecipient = privateKeyToAccount(ANVIL_KEYS[6]).address;
      const publicClient = createPublicClient({ chain: foundry, transport: http(node.rpcUrl) });
      // The v2 deployment as an earlier chain:deploy left it.
      const walletClient = createWalletClient({
        chain: foundry,
        transport: http(node.rpcUrl),
        account: privateKeyToAccount(ANVIL_KEYS[5]),
      });
      const old = await deployContracts({
        walletClient,
        publicClient,
        registrar: walletClient.account.address,
        owner: walletClient.account.address,
        operator,
        feeRecipient,
        maxFeeBps: 700,
        escrowVersion: 'v2',
      });
      const { stdout, stderr } = await deployScript(['--rpc', node.rpcUrl, '--upgrade', old.escrow], {
        REGISTRAR_PRIVATE_KEY: ANVIL_KEYS[5],
      });
      const printed = JSON.parse(stdout) as Record<string, `0x${string}`>;
      expect(Object.keys(printed)).toEqual(['escrow', 'escrowV2', 'rewardToken', 'owner', 'operator']);
      expect(printed).toMatchObject({
        escrowV2: old.escrow.toLowerCase(),
        rewardToken: old.rewardToken.toLowerCase(),
        operator: operator.toLowerCase(),
      });
      expect(stderr).toContain(`ESCROW_V2_ADDRESS=${old.escrow}`);
      const v3 = { address: printed.escrow!, abi: taskEscrowV3Artifact.abi } as const;
      expect(await publicClient.readContract({ ...v3, functionName: 'operator' })).toBe(operator);
      expect(await publicClient.readContract({ ...v3, functionName: 'feeRecipient' })).toBe(feeRecipient);
      expect(await publicClient.readContract({ ...v3, functionName: 'maxFeeBps' })).toBe(700);
      expect(await publicClient.readContract({ ...v3, functionName: 'MAX_RECIPIENTS' })).toBe(10n);
      expect(
        await publicClient.readContract({
          address: printed.escrow!,
          abi: taskEscrowV4Artifact.abi,
          functionName: 'TASK_FUNDING_TYPEHASH',
        }),
      ).toMatch(/^0x[0-9a-f]{64}$/);
      expect(
        await publicClient.readContract({
          address: printed.escrow!,
          abi: taskEscrowV5Artifact.abi,
          functionName: 'FUNDING_MANDATE_TYPEHASH',
        }),
      ).toMatch(/^0x[0-9a-f]{64}$/);
      expect(getAddress(await publicClient.readContract({ ...v3, functionName: 'token' }))).toBe(
        getAddress(old.rewardToken),
      );
      expect(
        await publicClient.readContract({ address: old.escrow, abi: taskEscrowArtifact.abi, functionName: 'operator' }),
      ).toBe(operator);
    },
  );

  test(
    'deploys a v5 escrow beside a v3 one and names it ESCROW_V3_ADDRESS; a v5 escrow is ' +
      'refused as already upgraded',
    async () => {
      const operator = privateKeyToAccount(ANVIL_KEYS[8]).address;
      const publicClient = createPublicClient({ chain: foundry, transport: http(node.rpcUrl) });
      const walletClient = createWalletClient({
        chain: foundry,
        transport: http(node.rpcUrl),
        account: privateKeyToAccount(ANVIL_KEYS[5]),
      });
      const old = await deployContracts({
        walletClient,
        publicClient,
        registrar: walletClient.account.address,
        owner: walletClient.account.address,
        operator,
        feeRecipient: operator,
        maxFeeBps: 500,
        escrowVersion: 'v3',
      });
      const { stdout, stderr } = await deployScript(['--rpc', node.rpcUrl, '--upgrade', old.escrow], {
        REGISTRAR_PRIVATE_KEY: ANVIL_KEYS[5],
      });
      const printed = JSON.parse(stdout) as Record<string, `0x${string}`>;
      expect(Object.keys(printed)).toEqual(['escrow', 'escrowV3', 'rewardToken', 'owner', 'operator']);
      expect(printed).toMatchObject({
        escrowV3: old.escrow.toLowerCase(),
        rewardToken: old.rewardToken.toLowerCase(),
        operator: operator.toLowerCase(),
      });
      expect(stderr).toContain(`ESCROW_V3_ADDRESS=${old.escrow}`);
      const v4 = { address: printed.escrow!, abi: taskEscrowV4Artifact.abi } as const;
      expect(await publicClient.readContract({ ...v4, functionName: 'maxFeeBps' })).toBe(500);
      expect(await publicClient.readContract({ ...v4, functionName: 'operator' })).toBe(operator);
      expect(getAddress(await publicClient.readContract({ ...v4, functionName: 'token' }))).toBe(
        getAddress(old.rewardToken),
      );

      const again = await deployScript(['--rpc', node.rpcUrl, '--upgrade', printed.escrow!], {
        REGISTRAR_PRIVATE_KEY: ANVIL_KEYS[5],
      }).then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(again?.code).toBe(1);
      expect(again?.stdout).toBe('');
      expect(again?.stderr).toContain('is already a v5 escrow');
    },
  );

  test('deploys a v5 escrow beside a v4 one and names it ESCROW_V4_ADDRESS', async () => {
    const operator = privateKeyToAccount(ANVIL_KEYS[8]).address;
    const publicClient = createPublicClient({ chain: foundry, transport: http(node.rpcUrl) });
    const walletClient = createWalletClient({
      chain: foundry,
      transport: http(node.rpcUrl),
      account: privateKeyToAccount(ANVIL_KEYS[5]),
    });
    const old = await deployContracts({
      walletClient,
      publicClient,
      registrar: walletClient.account.address,
      owner: walletClient.account.address,
      operator,
      feeRecipient: operator,
      maxFeeBps: 400,
      escrowVersion: 'v4',
    });
    const { stdout, stderr } = await deployScript(['--rpc', node.rpcUrl, '--upgrade', old.escrow], {
      REGISTRAR_PRIVATE_KEY: ANVIL_KEYS[5],
    });
    const printed = JSON.parse(stdout) as Record<string, `0x${string}`>;
    expect(Object.keys(printed)).toEqual(['escrow', 'escrowV4', 'rewardToken', 'owner', 'operator']);
    expect(printed).toMatchObject({ escrowV4: old.escrow.toLowerCase(), rewardToken: old.rewardToken.toLowerCase() });
    expect(stderr).toContain(`ESCROW_V4_ADDRESS=${old.escrow}`);
    const v5 = { address: printed.escrow!, abi: taskEscrowV5Artifact.abi } as const;
    expect(await publicClient.readContract({ ...v5, functionName: 'maxFeeBps' })).toBe(400);
    expect(await publicClient.readContract({ ...v5, functionName: 'operator' })).toBe(operator);
    expect(await publicClient.readContract({ ...v5, functionName: 'FUNDING_MANDATE_TYPEHASH' })).toMatch(
      /^0x[0-9a-f]{64}$/,
    );
    expect(getAddress(await publicClient.readContract({ ...v5, functionName: 'token' }))).toBe(
      getAddress(old.rewardToken),
    );
  });

  test('error: an address that is not an escrow is refused', async () => {
    const failure = await deployScript(
      ['--rpc', node.rpcUrl, '--upgrade', privateKeyToAccount(ANVIL_KEYS[7]).address],
      { REGISTRAR_PRIVATE_KEY: ANVIL_KEYS[5] },
    ).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('is not a TaskEscrow on this chain');
  });
});
