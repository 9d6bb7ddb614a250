// `npm run chain:deploy -- --rpc <url>`: deploys the token, Passport and the escrow (v5) with
// REGISTRAR_PRIVATE_KEY; OWNER_ADDRESS, OPERATOR_ADDRESS, FEE_RECIPIENT_ADDRESS and MAX_FEE_BPS
// set the escrow (defaults: the deployer three times, and 1000). `--upgrade <v2, v3 or v4 escrow>`
// deploys only a v5 escrow beside a running older one (docs/escrow.md#upgrading-a-v4-deployment-to-v5).
// `--erc8004` (the default on a local chain, id 31337) also deploys the vendored ERC-8004 Identity and
// Reputation registries (contracts/erc8004/README.md); elsewhere name the canonical ones instead.
// A one-off operator tool, so it reads its own few environment variables rather than lib/config.
import { parseArgs } from 'node:util';
import {
  type Account,
  type Address,
  BaseError,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  isAddress,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { taskEscrowV5Artifact } from '../lib/chain/artifacts';
import { DEFAULT_MAX_FEE_BPS, deployContracts, deployErc8004Registries, deployEscrow } from '../lib/chain/deploy';

function fail(message: string): never {
  console.error(`chain:deploy: ${message}`);
  process.exit(1);
}

function optionalAddress(name: string, fallback: Address): Address {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  if (!isAddress(value)) fail(`${name} is not an address: ${value}`);
  return value;
}

function maxFeeBps(): number {
  const value = process.env.MAX_FEE_BPS;
  if (value === undefined || value === '') return DEFAULT_MAX_FEE_BPS;
  if (!/^\d+$/.test(value) || Number(value) > 2000) fail(`MAX_FEE_BPS must be a whole number from 0 to 2000: ${value}`);
  return Number(value);
}

async function main() {
  const { values } = parseArgs({
    options: { rpc: { type: 'string' }, upgrade: { type: 'string' }, erc8004: { type: 'boolean' } },
  });
  if (!values.rpc) fail('usage: npm run chain:deploy -- --rpc <url> [--upgrade <v2, v3 or v4 escrow address>]');
  if (values.upgrade !== undefined && !isAddress(values.upgrade))
    fail(`--upgrade is not an address: ${values.upgrade}`);
  const key = process.env.REGISTRAR_PRIVATE_KEY;
  if (!key) fail('REGISTRAR_PRIVATE_KEY is required (the registrar/deployer key, 0x + 64 hex digits)');
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) fail('REGISTRAR_PRIVATE_KEY must be 0x followed by 64 hex digits');

  const account = privateKeyToAccount(key as `0x${string}`);
  const transport = http(values.rpc);
  const chainId = await createPublicClient({ transport }).getChainId();
  const chain = defineChain({
    id: chainId,
    name: `chain-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [values.rpc] } },
  });
  const walletClient = createWalletClient({ chain, transport, account });
  const publicClient = createPublicClient({ chain, transport });
  if (values.upgrade) return upgrade(walletClient, publicClient, values.upgrade, account.address);
  const owner = optionalAddress('OWNER_ADDRESS', account.address);
  const operator = optionalAddress('OPERATOR_ADDRESS', account.address);
  const deployed = await deployContracts({
    walletClient,
    publicClient,
    registrar: account.address,
    owner,
    operator,
    feeRecipient: optionalAddress('FEE_RECIPIENT_ADDRESS', account.address),
    maxFeeBps: maxFeeBps(),
  });
  // docs/escrow.md#erc-8004-registries: ERC8004_IDENTITY_ADDRESS and ERC8004_REPUTATION_ADDRESS.
  const registries =
    values.erc8004 || chainId === 31337 ? await deployErc8004Registries({ walletClient, publicClient }) : {};
  console.error(`chain:deploy: deployed on chain ${chainId} from ${account.address}`);
  const printed = { ...deployed, ...registries, owner: owner.toLowerCase(), operator: operator.toLowerCase() };
  process.stdout.write(`${JSON.stringify(printed, null, 2)}\n`);
}

/**
 * Which escrow an address holds, by the function each version added: v3's MAX_RECIPIENTS, v4's
 * TASK_FUNDING_TYPEHASH, v5's FUNDING_MANDATE_TYPEHASH.
 */
async function versionOf(publicClient: PublicClient, escrow: Address): Promise<'v2' | 'v3' | 'v4' | 'v5'> {
  const has = (functionName: 'MAX_RECIPIENTS' | 'TASK_FUNDING_TYPEHASH' | 'FUNDING_MANDATE_TYPEHASH') =>
    publicClient.readContract({ address: escrow, abi: taskEscrowV5Artifact.abi, functionName }).then(
      () => true,
      () => false,
    );
  if (await has('FUNDING_MANDATE_TYPEHASH')) return 'v5';
  if (await has('TASK_FUNDING_TYPEHASH')) return 'v4';
  return (await has('MAX_RECIPIENTS')) ? 'v3' : 'v2';
}

/** The variable (and printed key) naming an old escrow kept beside the new one. */
const KEPT = {
  v2: ['ESCROW_V2_ADDRESS', 'escrowV2'],
  v3: ['ESCROW_V3_ADDRESS', 'escrowV3'],
  v4: ['ESCROW_V4_ADDRESS', 'escrowV4'],
} as const;

/**
 * docs/escrow.md#upgrading-a-v4-deployment-to-v5: a v5 escrow beside a running v2, v3 or v4 one, on
 * the same token, with the old one's owner, operator, fee recipient and fee ceiling unless the
 * environment names others. The old escrow is left as it is; the server keeps settling the tasks
 * it holds there (each mission records its escrow) and claims its balances once ESCROW_V2_ADDRESS,
 * ESCROW_V3_ADDRESS or ESCROW_V4_ADDRESS names it (README).
 */
async function upgrade(
  walletClient: WalletClient<Transport, Chain, Account>,
  publicClient: PublicClient,
  old: Address,
  deployer: Address,
) {
  const read = <T>(functionName: 'token' | 'owner' | 'operator' | 'feeRecipient' | 'maxFeeBps') =>
    publicClient.readContract({ address: old, abi: taskEscrowV5Artifact.abi, functionName }) as Promise<T>;
  const [token, owner, operator, feeRecipient, ceiling] = await Promise.all([
    read<Address>('token'),
    read<Address>('owner'),
    read<Address>('operator'),
    read<Address>('feeRecipient'),
    read<number>('maxFeeBps'),
  ]).catch(() => fail(`${old} is not a TaskEscrow on this chain`));
  const version = await versionOf(publicClient, old);
  if (version === 'v5') fail(`${old} is already a v5 escrow: nothing to upgrade`);
  const options = {
    walletClient,
    publicClient,
    registrar: deployer,
    owner: optionalAddress('OWNER_ADDRESS', owner),
    operator: optionalAddress('OPERATOR_ADDRESS', operator),
    feeRecipient: optionalAddress('FEE_RECIPIENT_ADDRESS', feeRecipient),
    maxFeeBps: process.env.MAX_FEE_BPS ? maxFeeBps() : ceiling,
  };
  const escrow = await deployEscrow(options, token, 'v5');
  const [variable, key] = KEPT[version];
  console.error(
    `chain:deploy: escrow v5 deployed beside ${version} ${old}; set ESCROW_ADDRESS=${escrow} and ${variable}=${old}`,
  );
  const kept = { [key]: old.toLowerCase() };
  const printed = {
    escrow: escrow.toLowerCase(),
    ...kept,
    rewardToken: token.toLowerCase(),
    owner: options.owner.toLowerCase(),
    operator: options.operator.toLowerCase(),
  };
  process.stdout.write(`${JSON.stringify(printed, null, 2)}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof BaseError) fail(`${error.shortMessage} ${error.details}`.trim());
  fail(error instanceof Error ? error.message : String(error));
});
