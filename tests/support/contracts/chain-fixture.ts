// Per test file: its own anvil with freshly deployed contracts, named accounts bound to the
// contracts, and an anvil snapshot reverted after every test so no test sees another's state.
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeErrorResult,
  getContract,
  http,
  type Hash,
  type Hex,
  type PrivateKeyAccount,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { mockUsdcArtifact, passportArtifact, taskEscrowV5Artifact } from '@/lib/chain/artifacts';
import { deployContracts, type DeployedContracts, type EscrowVersion } from '@/lib/chain/deploy';
import { ANVIL_KEYS, startAnvil, type AnvilNode } from '@/lib/chain/anvil-node';

export type ChainContext = ReturnType<typeof connect>;

function connect(rpcUrl: string, deployed: DeployedContracts) {
  const transport = http(rpcUrl);
  // Anvil mines each transaction at once; poll receipts quickly rather than viem's 4 s default.
  const publicClient = createPublicClient({ chain: foundry, transport, pollingInterval: 50 });
  const testClient = createTestClient({ chain: foundry, transport, mode: 'anvil' });

  /** The contracts as seen by one account: reads, and writes signed by that account. */
  function actor(key: Hex) {
    const account: PrivateKeyAccount = privateKeyToAccount(key);
    const walletClient = createWalletClient({ chain: foundry, transport, account });
    const client = { public: publicClient, wallet: walletClient };
    return {
      account,
      address: account.address,
      walletClient,
      passport: getContract({ address: deployed.passport, abi: passportArtifact.abi, client }),
      // Each version's ABI is the one before plus its additions: v5's binding serves them all.
      escrow: getContract({ address: deployed.escrow, abi: taskEscrowV5Artifact.abi, client }),
      token: getContract({ address: deployed.rewardToken, abi: mockUsdcArtifact.abi, client }),
    };
  }

  /** Waits for a sent transaction and insists it succeeded. */
  async function mined(hash: Promise<Hash>) {
    const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash });
    expect(receipt.status).toBe('success');
    return receipt;
  }

  return {
    rpcUrl,
    deployed,
    publicClient,
    testClient,
    mined,
    actor,
    /** Registrar of the passport and operator of the escrow (the backend's key). */
    registrar: actor(ANVIL_KEYS[0]),
    operator: actor(ANVIL_KEYS[0]),
    feeRecipient: actor(ANVIL_KEYS[1]),
    client: actor(ANVIL_KEYS[2]),
    agent: actor(ANVIL_KEYS[3]),
    stranger: actor(ANVIL_KEYS[4]),
    /** The escrow's owner (a multisig in production): replaces the operator and fee recipient. */
    owner: actor(ANVIL_KEYS[5]),
  };
}

/** Every escrow test runs against each version: each must keep every guarantee of the one before (docs/escrow.md). */
export const ESCROW_VERSIONS = ['v2', 'v3', 'v4', 'v5'] as const satisfies readonly EscrowVersion[];

/** Starts anvil and deploys before the file's tests; hands back the context once it is ready. */
export function useContractsChain(escrowVersion: EscrowVersion = 'v5'): () => ChainContext {
  let node: AnvilNode | undefined;
  let context: ChainContext | undefined;
  let snapshot: Hex | undefined;

  beforeAll(async () => {
    node = await startAnvil({});
    const deployer = privateKeyToAccount(ANVIL_KEYS[0]);
    const transport = http(node.rpcUrl);
    const deployed = await deployContracts({
      walletClient: createWalletClient({ chain: foundry, transport, account: deployer }),
      publicClient: createPublicClient({ chain: foundry, transport, pollingInterval: 50 }),
      registrar: deployer.address,
      owner: privateKeyToAccount(ANVIL_KEYS[5]).address,
      operator: deployer.address,
      feeRecipient: privateKeyToAccount(ANVIL_KEYS[1]).address,
      maxFeeBps: 1000,
      escrowVersion,
    });
    context = connect(node.rpcUrl, deployed);
  });
  beforeEach(async () => {
    snapshot = await context!.testClient.snapshot();
  });
  afterEach(async () => {
    if (snapshot) await context!.testClient.revert({ id: snapshot });
  });
  afterAll(async () => {
    await node?.stop();
  });
  return () => {
    if (!context) throw new Error('the chain is not ready: call this inside a test');
    return context;
  };
}

const KNOWN_ERRORS = [...passportArtifact.abi, ...taskEscrowV5Artifact.abi, ...mockUsdcArtifact.abi].filter(
  (item) => item.type === 'error',
);

/** The custom error name a failed call or transaction reverted with (decoded against our ABIs). */
export function revertName(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError) {
    if (reverted.data) return reverted.data.errorName;
    return reverted.raw ? decodeErrorResult({ abi: KNOWN_ERRORS, data: reverted.raw }).errorName : undefined;
  }
  // A reverted deployment reports only the raw data, in the node's message.
  const raw = /custom error (0x[0-9a-f]{8}): ?([0-9a-f]*)/i.exec(error.message);
  return raw ? decodeErrorResult({ abi: KNOWN_ERRORS, data: `${raw[1]}${raw[2]}` as Hex }).errorName : undefined;
}

/** Expects the action to be refused by the contract with this custom error. */
export async function expectRevert(action: Promise<unknown>, errorName: string): Promise<void> {
  const error = await action.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected a revert with ${errorName}, but it succeeded`).toBeDefined();
  expect(revertName(error), String(error)).toBe(errorName);
}

/**
 * Expects the action to be refused with this revert string: USDC (FiatToken v2.2) and so MockUSDC
 * refuse with `require` messages, not custom errors.
 */
export async function expectRevertReason(action: Promise<unknown>, reason: string): Promise<void> {
  const error = await action.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected a revert with "${reason}", but it succeeded`).toBeDefined();
  const reverted =
    error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined;
  expect(reverted instanceof ContractFunctionRevertedError ? reverted.reason : undefined, String(error)).toBe(reason);
}
