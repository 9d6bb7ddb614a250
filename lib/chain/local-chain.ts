// A local chain with our contracts, for `npm run dev`, benchmarks and tests: anvil started, and
// the contracts deployed unless a previous deployment (recorded in `recordFile`) is still there —
// ours first, then the ERC-8004 registries (contracts/erc8004/README.md), so our addresses stay as they were.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { concat, createPublicClient, createWalletClient, http, keccak256, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { ANVIL_KEYS, startAnvil } from './anvil-node';
import {
  identityRegistryArtifact,
  minimalUupsArtifact,
  mockUsdcArtifact,
  passportArtifact,
  reputationRegistryArtifact,
} from './artifacts';
import {
  DEFAULT_MAX_FEE_BPS,
  type DeployedContracts,
  deployContracts,
  deployErc8004Registries,
  type Erc8004Registries,
  ESCROW_ARTIFACTS,
} from './deploy';

// The compiled contracts a deployment was made from: every one deployed here, so a recorded
// deployment of an older escrow, token or registry is replaced by today's.
const BUILD = keccak256(
  concat([
    mockUsdcArtifact.bytecode,
    passportArtifact.bytecode,
    ESCROW_ARTIFACTS.v5.bytecode,
    minimalUupsArtifact.bytecode,
    identityRegistryArtifact.bytecode,
    reputationRegistryArtifact.bytecode,
  ]),
);

/** Our contracts and, beside them, the ERC-8004 Identity and Reputation registries. */
export type LocalContracts = DeployedContracts & Erc8004Registries;

export interface LocalChain {
  rpcUrl: string;
  chainId: number;
  /** Anvil account 0: deployer, passport registrar, escrow owner, operator and fee recipient. */
  registrarKey: Hex;
  contracts: LocalContracts;
  stop(): Promise<void>;
}

export async function startLocalChain(
  options: { port?: number; statePath?: string; recordFile?: string } = {},
): Promise<LocalChain> {
  const node = await startAnvil({ port: options.port, statePath: options.statePath });
  const registrarKey = ANVIL_KEYS[0];
  const account = privateKeyToAccount(registrarKey);
  const transport = http(node.rpcUrl);
  const publicClient = createPublicClient({ chain: foundry, transport });
  try {
    const recorded =
      options.recordFile && existsSync(options.recordFile)
        ? (JSON.parse(readFileSync(options.recordFile, 'utf8')) as LocalContracts & { build?: string })
        : undefined;
    // A recorded deployment counts only if it is of today's contracts (a checkout that moved on,
    // say to escrow v4, deploys afresh) and the chain state still holds its code.
    let contracts: LocalContracts | undefined =
      recorded?.build === BUILD
        ? {
            passport: recorded.passport,
            escrow: recorded.escrow,
            rewardToken: recorded.rewardToken,
            identityRegistry: recorded.identityRegistry,
            reputationRegistry: recorded.reputationRegistry,
          }
        : undefined;
    if (contracts && !(await publicClient.getCode({ address: contracts.passport }))) contracts = undefined;
    if (!contracts) {
      const walletClient = createWalletClient({ chain: foundry, transport, account });
      const ours = await deployContracts({
        walletClient,
        publicClient,
        registrar: account.address,
        owner: account.address,
        operator: account.address,
        feeRecipient: account.address,
        maxFeeBps: DEFAULT_MAX_FEE_BPS,
      });
      contracts = { ...ours, ...(await deployErc8004Registries({ walletClient, publicClient })) };
      if (options.recordFile)
        writeFileSync(options.recordFile, `${JSON.stringify({ ...contracts, build: BUILD }, null, 2)}\n`);
    }
    return { rpcUrl: node.rpcUrl, chainId: foundry.id, registrarKey, contracts, stop: node.stop };
  } catch (error) {
    await node.stop();
    throw error;
  }
}
