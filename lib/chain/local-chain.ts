// A local chain with our contracts, for `npm run dev`, benchmarks and tests: anvil started, and
// the contracts deployed unless a previous deployment (recorded in `recordFile`) is still there.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { concat, createPublicClient, createWalletClient, http, keccak256, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { ANVIL_KEYS, startAnvil } from './anvil-node';
import { mockUsdcArtifact, passportArtifact } from './artifacts';
import { DEFAULT_MAX_FEE_BPS, type DeployedContracts, deployContracts, ESCROW_ARTIFACTS } from './deploy';

// The compiled contracts a deployment was made from: every one deployContracts deploys, so a
// recorded deployment of an older escrow (or token) is replaced by today's.
const BUILD = keccak256(concat([mockUsdcArtifact.bytecode, passportArtifact.bytecode, ESCROW_ARTIFACTS.v4.bytecode]));

export interface LocalChain {
  rpcUrl: string;
  chainId: number;
  /** Anvil account 0: deployer, passport registrar, escrow owner, operator and fee recipient. */
  registrarKey: Hex;
  contracts: DeployedContracts;
  stop(): Promise<void>;
}

export async function startLocalChain(options: { port?: number; statePath?: string; recordFile?: string } = {}): Promise<LocalChain> {
  const node = await startAnvil({ port: options.port, statePath: options.statePath });
  const registrarKey = ANVIL_KEYS[0];
  const account = privateKeyToAccount(registrarKey);
  const transport = http(node.rpcUrl);
  const publicClient = createPublicClient({ chain: foundry, transport });
  try {
    const recorded = options.recordFile && existsSync(options.recordFile)
      ? (JSON.parse(readFileSync(options.recordFile, 'utf8')) as DeployedContracts & { build?: string })
      : undefined;
    // A recorded deployment counts only if it is of today's contracts (a checkout that moved on,
    // say to escrow v2, deploys afresh) and the chain state still holds its code.
    let contracts: DeployedContracts | undefined = recorded?.build === BUILD
      ? { passport: recorded.passport, escrow: recorded.escrow, rewardToken: recorded.rewardToken }
      : undefined;
    if (contracts && !(await publicClient.getCode({ address: contracts.passport }))) contracts = undefined;
    if (!contracts) {
      contracts = await deployContracts({
        walletClient: createWalletClient({ chain: foundry, transport, account }),
        publicClient,
        registrar: account.address,
        owner: account.address,
        operator: account.address,
        feeRecipient: account.address,
        maxFeeBps: DEFAULT_MAX_FEE_BPS,
      });
      if (options.recordFile) writeFileSync(options.recordFile, `${JSON.stringify({ ...contracts, build: BUILD }, null, 2)}\n`);
    }
    return { rpcUrl: node.rpcUrl, chainId: foundry.id, registrarKey, contracts, stop: node.stop };
  } catch (error) {
    await node.stop();
    throw error;
  }
}
