// Deploys the reward token (MockUSDC), Passport and TaskEscrow (v5) with the given clients. Used by the
// deploy script, the dev chain and tests; it reads no environment, so callers choose every address.
import {
  type Abi,
  type Account,
  type Address,
  type Chain,
  encodeFunctionData,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
  zeroAddress,
} from 'viem';
import {
  erc1967ProxyArtifact,
  identityRegistryArtifact,
  minimalUupsArtifact,
  mockUsdcArtifact,
  passportArtifact,
  reputationRegistryArtifact,
  taskEscrowArtifact,
  taskEscrowV3Artifact,
  taskEscrowV4Artifact,
  taskEscrowV5Artifact,
} from './artifacts';

/** docs/api.md#escrow: the fee ceiling a deployment gets unless MAX_FEE_BPS says otherwise. */
export const DEFAULT_MAX_FEE_BPS = 1000;

/**
 * The escrow contracts by version, each a superset of the one before: v3 adds `releaseSplit`
 * (docs/api.md#bounties), v4 `createTaskWithAuthorization` (docs/escrow.md#funding-with-one-signature),
 * v5 `settle`, `releasePart` and the funding mandate (docs/escrow.md#escrow-v5).
 */
export const ESCROW_ARTIFACTS = {
  v2: taskEscrowArtifact,
  v3: taskEscrowV3Artifact,
  v4: taskEscrowV4Artifact,
  v5: taskEscrowV5Artifact,
} as const;
const ESCROW_NAMES: Record<EscrowVersion, string> = {
  v2: 'TaskEscrow',
  v3: 'TaskEscrowV3',
  v4: 'TaskEscrowV4',
  v5: 'TaskEscrowV5',
};
export type EscrowVersion = keyof typeof ESCROW_ARTIFACTS;

export interface DeployContractsOptions {
  /** Pays for and sends the deployments; must carry an account. */
  walletClient: WalletClient<Transport, Chain | undefined, Account>;
  publicClient: PublicClient;
  /** Receives DEFAULT_ADMIN_ROLE and REGISTRAR_ROLE on the passport. */
  registrar: Address;
  /** May replace the operator and the fee recipient (two-step ownership): a multisig in production. */
  owner: Address;
  /** The only address that may release or refund escrowed tasks. */
  operator: Address;
  feeRecipient: Address;
  /** The escrow's fee ceiling, fixed for its life (≤ 2000). */
  maxFeeBps: number;
  /** Default v5; v2, v3 and v4 only to stand up an old deployment (tests of the upgrade path). */
  escrowVersion?: EscrowVersion;
}

export interface DeployedContracts {
  passport: Address;
  escrow: Address;
  rewardToken: Address;
}

type Deployer = Pick<DeployContractsOptions, 'walletClient' | 'publicClient'>;

async function deployOne(
  { walletClient, publicClient }: Deployer,
  name: string,
  artifact: { abi: Abi; bytecode: Hex },
  args: readonly unknown[],
): Promise<Address> {
  const hash = await walletClient.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args,
    account: walletClient.account,
    chain: walletClient.chain ?? null,
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) {
    throw new Error(`${name} deployment ${hash} failed (status ${receipt.status})`);
  }
  return receipt.contractAddress;
}

/** Deploys in sequence, each waited for, so the escrow can name the token it was just given. */
export async function deployContracts(options: DeployContractsOptions): Promise<DeployedContracts> {
  const rewardToken = await deployOne(options, 'MockUSDC', mockUsdcArtifact, []);
  const passport = await deployOne(options, 'Passport', passportArtifact, [options.registrar]);
  const escrow = await deployEscrow(options, rewardToken, options.escrowVersion ?? 'v5');
  return { passport, escrow, rewardToken };
}

/**
 * One escrow on an existing token: also the upgrade of a v2, v3 or v4 deployment (`chain:deploy --upgrade`),
 * where v5 is deployed beside the old escrow and the old one keeps its tasks
 * (docs/escrow.md#upgrading-a-v4-deployment-to-v5).
 */
export function deployEscrow(
  options: DeployContractsOptions,
  rewardToken: Address,
  version: EscrowVersion,
): Promise<Address> {
  return deployOne(options, ESCROW_NAMES[version], ESCROW_ARTIFACTS[version], [
    rewardToken,
    options.owner,
    options.operator,
    options.feeRecipient,
    options.maxFeeBps,
  ]);
}

/**
 * The ERC-8004 registries (contracts/erc8004/README.md) a local chain deploys; elsewhere the canonical ones are named.
 */
export interface Erc8004Registries {
  identityRegistry: Address;
  reputationRegistry: Address;
}

/**
 * The reference ERC-8004 Identity and Reputation registries (contracts/erc8004/), deployed as their
 * repository's own tests deploy them: each an ERC1967Proxy first pointing at HardhatMinimalUUPS,
 * whose initializer makes the deployer the owner, then upgraded by that owner to the registry and
 * its owner-only `initialize` (the Reputation registry learns the Identity registry's address).
 * The registries are upgradeable by that owner — the deployer's key, on a local chain only.
 */
export async function deployErc8004Registries(deployer: Deployer): Promise<Erc8004Registries> {
  const { walletClient, publicClient } = deployer;
  const minimal = await deployOne(deployer, 'HardhatMinimalUUPS', minimalUupsArtifact, []);
  async function behindProxy(
    name: string,
    artifact: { abi: Abi; bytecode: Hex },
    identity: Address,
    initialize: Hex,
  ): Promise<Address> {
    const placeholder = encodeFunctionData({
      abi: minimalUupsArtifact.abi,
      functionName: 'initialize',
      args: [identity],
    });
    const proxy = await deployOne(deployer, `${name} proxy`, erc1967ProxyArtifact, [minimal, placeholder]);
    const implementation = await deployOne(deployer, name, artifact, []);
    const hash = await walletClient.writeContract({
      address: proxy,
      abi: minimalUupsArtifact.abi,
      functionName: 'upgradeToAndCall',
      args: [implementation, initialize],
      account: walletClient.account,
      chain: walletClient.chain ?? null,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`${name} upgrade ${hash} failed (status ${receipt.status})`);
    return proxy;
  }
  const identityRegistry = await behindProxy(
    'IdentityRegistryUpgradeable',
    identityRegistryArtifact,
    zeroAddress,
    encodeFunctionData({ abi: identityRegistryArtifact.abi, functionName: 'initialize' }),
  );
  const reputationRegistry = await behindProxy(
    'ReputationRegistryUpgradeable',
    reputationRegistryArtifact,
    identityRegistry,
    encodeFunctionData({ abi: reputationRegistryArtifact.abi, functionName: 'initialize', args: [identityRegistry] }),
  );
  return { identityRegistry, reputationRegistry };
}
