// set the escrow (defaults: the deployer three times, and 1000).
// A one-off operator tool, so it reads its own few environment variables rather than lib/config.
import { parseArgs } from 'node:util';
import { BaseError, createPublicClient, createWalletClient, defineChain, http, isAddress, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEFAULT_MAX_FEE_BPS, deployContracts } from '../lib/chain/deploy';

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
  const { values } = parseArgs({ options: { rpc: { type: 'string' } } });
  if (!values.rpc) fail('usage: npm run chain:deploy -- --rpc <url>');
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
  const owner = optionalAddress('OWNER_ADDRESS', account.address);
  const operator = optionalAddress('OPERATOR_ADDRESS', account.address);
  const deployed = await deployContracts({
    walletClient: createWalletClient({ chain, transport, account }),
    publicClient: createPublicClient({ chain, transport }),
    registrar: account.address,
    owner,
    operator,
    feeRecipient: optionalAddress('FEE_RECIPIENT_ADDRESS', account.address),
    maxFeeBps: maxFeeBps(),
  });
  console.error(`chain:deploy: deployed on chain ${chainId} from ${account.address}`);
  const printed = { ...deployed, owner: owner.toLowerCase(), operator: operator.toLowerCase() };
  process.stdout.write(`${JSON.stringify(printed, null, 2)}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof BaseError) fail(`${error.shortMessage} ${error.details}`.trim());
  fail(error instanceof Error ? error.message : String(error));
});
