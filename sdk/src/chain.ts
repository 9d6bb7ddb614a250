// The SDK's own transactions (docs/api.md#contracts, #escrow): escrowing a reward (approve + createTask) and
// minting one's own passport. Minimal ABI fragments, no artifacts; viem clients built from the
// account and `rpcUrl`, or the WalletClient's own transport.
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  http,
  parseAbi,
  parseEventLogs,
  publicActions,
  type Account,
  type Address,
  type Chain,
  type Hash,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import type { Signer } from './account.js';
import { localFailure, TaskmarketError } from './errors.js';

export const escrowAbi = parseAbi([
  'function createTask(uint256 reward, bytes32 ref, uint64 expiresAt) returns (uint256 taskId)',
  'event TaskCreated(uint256 indexed taskId, address indexed client, uint256 reward, bytes32 ref)',
]);

export const passportAbi = parseAbi([
  'function mint(address to) returns (uint256)',
  'function passportOf(address holder) view returns (uint256)',
]);

/** The ERC-8004 Identity registry's register(agentURI) (docs/api.md#erc-8004-identity). */
export const identityRegistryAbi = parseAbi([
  'function register(string agentURI) returns (uint256 agentId)',
  'event Registered(uint256 indexed agentId, string agentURI, address indexed owner)',
]);

export interface ChainAccess {
  reader: Pick<PublicClient, 'readContract' | 'waitForTransactionReceipt'>;
  writer: WalletClient<Transport, Chain | undefined, Account>;
  address: Address;
}

/** Clients for `chainId` (the server's chain, from /api/public/config). */
export function chainAccess(signer: Signer, rpcUrl: string | undefined, chainId: number): ChainAccess {
  if (signer.walletClient) {
    const writer = signer.walletClient;
    const reader = rpcUrl ? createPublicClient({ transport: http(rpcUrl) }) : writer.extend(publicActions);
    return { reader, writer, address: signer.address };
  }
  if (!rpcUrl)
    throw new TaskmarketError({ status: 0, error: 'On-chain calls need createClient({ rpcUrl }) or a WalletClient' });
  const chain = defineChain({
    id: chainId,
    name: `taskmarket chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl);
  return {
    reader: createPublicClient({ chain, transport }),
    writer: createWalletClient({ chain, transport, account: signer.localAccount! }),
    address: signer.address,
  };
}

async function mined(access: ChainAccess, hash: Hash, what: string) {
  const receipt = await access.reader.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success')
    throw new TaskmarketError({ status: 0, error: `${what} reverted (transaction ${hash})` });
  return receipt;
}

export interface TaskFunding {
  escrow: Address;
  token: Address;
  reward: bigint;
  ref: `0x${string}`;
  expiresAt: bigint;
}

/** Approves the token when the allowance is short, creates the escrow task; answers its id. */
export async function fundTask(access: ChainAccess, funding: TaskFunding): Promise<number> {
  const { escrow, token, reward, ref, expiresAt } = funding;
  const { writer } = access;
  try {
    const allowance = await access.reader.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [access.address, escrow],
    });
    if (allowance < reward) {
      // The exact amount, not an unlimited allowance: the escrow can pull this reward and no more.
      const approval = await writer.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: 'approve',
        args: [escrow, reward],
        chain: writer.chain ?? null,
        account: writer.account,
      });
      await mined(access, approval, 'approve');
    }
    const hash = await writer.writeContract({
      address: escrow,
      abi: escrowAbi,
      functionName: 'createTask',
      args: [reward, ref, expiresAt],
      chain: writer.chain ?? null,
      account: writer.account,
    });
    const receipt = await mined(access, hash, 'createTask');
    const [created] = parseEventLogs({ abi: escrowAbi, eventName: 'TaskCreated', logs: receipt.logs });
    if (!created)
      throw new TaskmarketError({ status: 0, error: `createTask emitted no TaskCreated (transaction ${hash})` });
    return Number(created.args.taskId);
  } catch (cause) {
    throw localFailure('Funding the reward on-chain failed', cause);
  }
}

/** Mints the wallet's own passport (paying its gas) unless it holds one; answers the token id. */
export async function mintOwnPassport(access: ChainAccess, passport: Address): Promise<bigint> {
  const { writer } = access;
  try {
    const held = await access.reader.readContract({
      address: passport,
      abi: passportAbi,
      functionName: 'passportOf',
      args: [access.address],
    });
    if (held !== 0n) return held;
    const hash = await writer.writeContract({
      address: passport,
      abi: passportAbi,
      functionName: 'mint',
      args: [access.address],
      chain: writer.chain ?? null,
      account: writer.account,
    });
    await mined(access, hash, 'Passport mint');
    return await access.reader.readContract({
      address: passport,
      abi: passportAbi,
      functionName: 'passportOf',
      args: [access.address],
    });
  } catch (cause) {
    throw localFailure('Minting the passport failed', cause);
  }
}

/** Registers an ERC-8004 identity owned by this wallet (one transaction, its gas); answers the agentId. */
export async function registerIdentity(access: ChainAccess, registry: Address, agentURI: string): Promise<bigint> {
  const { writer } = access;
  try {
    const hash = await writer.writeContract({
      address: registry,
      abi: identityRegistryAbi,
      functionName: 'register',
      args: [agentURI],
      chain: writer.chain ?? null,
      account: writer.account,
    });
    const receipt = await mined(access, hash, 'ERC-8004 register');
    const [registered] = parseEventLogs({ abi: identityRegistryAbi, eventName: 'Registered', logs: receipt.logs });
    if (!registered)
      throw new TaskmarketError({ status: 0, error: `register emitted no Registered event (transaction ${hash})` });
    return registered.args.agentId;
  } catch (cause) {
    if (cause instanceof TaskmarketError) throw cause;
    throw localFailure('Registering the ERC-8004 identity failed', cause);
  }
}
