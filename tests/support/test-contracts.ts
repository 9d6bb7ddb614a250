// Test-only contracts (contracts/test/*.sol, compiled into contracts/out/test/ by
// `npm run contracts:compile`), deployed on this worker's anvil by a funded account of the test's own.
import { readFileSync } from 'node:fs';
import { createPublicClient, http, type Abi, type Address, type Hex, type PrivateKeyAccount } from 'viem';
import { foundry } from 'viem/chains';
import { fund, walletOf } from './chain';
import { workerRpcUrl } from './ports';
import { newWallet } from './wallets';

export function testArtifact(name: string): { abi: Abi; bytecode: Hex } {
  return JSON.parse(readFileSync(new URL(`../../contracts/out/test/${name}.json`, import.meta.url), 'utf8'));
}

// Anvil mines at once: poll receipts every 50 ms rather than viem's default of seconds.
export const chainReader = () =>
  createPublicClient({ chain: foundry, transport: http(workerRpcUrl()), pollingInterval: 50 });

/** A fresh funded account, so deployments never race the registrar's nonces. */
export async function newDeployer(): Promise<PrivateKeyAccount> {
  const deployer = newWallet();
  await fund(deployer.address);
  return deployer;
}

export async function deployTestContract(
  deployer: PrivateKeyAccount,
  name: string,
  args: readonly unknown[] = [],
): Promise<Address> {
  const { abi, bytecode } = testArtifact(name);
  const hash = await walletOf(deployer).deployContract({ abi, bytecode, args });
  const receipt = await chainReader().waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`${name} deployment failed`);
  return receipt.contractAddress;
}
