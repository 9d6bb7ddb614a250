// Smart-contract wallets signing in through POST /api/auth/verify (docs/api.md#sign-in): ERC-1271 for
// deployed wallets, ERC-6492 for wallets not deployed yet, only the exact magic value counts, and
// an unreachable RPC is no verdict — 503, never 200.
import { beforeAll, describe, expect, test } from 'vitest';
import {
  encodeFunctionData,
  parseAbi,
  serializeErc6492Signature,
  toHex,
  type Address,
  type Hex,
  type PrivateKeyAccount,
} from 'viem';
import { randomBytes } from 'node:crypto';
import { POST as verify } from '@/app/api/auth/verify/route';
import { call } from '../support/http';
import { setEnv, useTestEnvironment } from '../support/environment';
import { workerRpcUrl } from '../support/ports';
import { type ProxyAnswer, startRpcProxy } from '../support/rpc-proxy';
import { walletOf } from '../support/chain';
import { chainReader, deployTestContract, newDeployer } from '../support/test-contracts';
import { newWallet, requestNonce, siweMessage } from '../support/wallets';

useTestEnvironment();

const factoryAbi = parseAbi([
  'function deploy(address owner, bytes32 salt) returns (address)',
  'function walletAddress(address owner, bytes32 salt) view returns (address)',
]);
const DEAD_RPC = 'http://127.0.0.1:9';

let deployer: PrivateKeyAccount;
let factory: Address;

beforeAll(async () => {
  deployer = await newDeployer();
  factory = await deployTestContract(deployer, 'OwnedWalletFactory');
});

/** An OwnedWallet of `owner` that exists only as an address: `deployData` is the factory call that would create it. */
async function counterfactualWallet(owner: PrivateKeyAccount) {
  const salt = toHex(randomBytes(32));
  const address = await chainReader().readContract({
    address: factory,
    abi: factoryAbi,
    functionName: 'walletAddress',
    args: [owner.address, salt],
  });
  const deployData = encodeFunctionData({ abi: factoryAbi, functionName: 'deploy', args: [owner.address, salt] });
  return { address, deployData };
}

async function deploy(wallet: { deployData: Hex }) {
  const hash = await walletOf(deployer).sendTransaction({ to: factory, data: wallet.deployData });
  expect((await chainReader().waitForTransactionReceipt({ hash })).status).toBe('success');
}

async function deployedWallet(owner: PrivateKeyAccount) {
  const wallet = await counterfactualWallet(owner);
  await deploy(wallet);
  return wallet;
}

/** A SIWE message for `address` over a fresh nonce, and the verify call with `sign`'s signature. */
async function verifyAs(address: Address, sign: (message: string) => Promise<Hex>) {
  const message = siweMessage(newWallet(), await requestNonce(address), { address });
  return call(verify, { body: { message, signature: await sign(message) } });
}

const signedBy = (owner: PrivateKeyAccount) => (message: string) => owner.signMessage({ message });

/** The owner's signature wrapped for ERC-6492: "deploy me through the factory first, then ask me". */
const wrapped6492 = (owner: PrivateKeyAccount, deployData: Hex) => async (message: string) =>
  serializeErc6492Signature({ address: factory, data: deployData, signature: await owner.signMessage({ message }) });

describe('ERC-1271: deployed smart-contract wallets', () => {
  test("default: a deployed wallet signs in with its owner's signature, as the wallet", async () => {
    const owner = newWallet();
    const wallet = await deployedWallet(owner);
    const response = await verifyAs(wallet.address, signedBy(owner));
    expect(response.status).toBe(200);
    expect(response.body.user).toEqual({
      id: expect.any(String),
      walletAddress: wallet.address.toLowerCase(),
      role: 'CLIENT',
    });
  });

  test('error: a signature by anyone but the owner is refused', async () => {
    const wallet = await deployedWallet(newWallet());
    expect(await verifyAs(wallet.address, signedBy(newWallet()))).toMatchObject({
      status: 401,
      body: { error: 'Invalid signature' },
    });
  });

  test('error: a wallet answering 0xffffffff is refused', async () => {
    const refusing = await deployTestContract(deployer, 'RefusingWallet');
    expect(await verifyAs(refusing, signedBy(newWallet()))).toMatchObject({
      status: 401,
      body: { error: 'Invalid signature' },
    });
  });

  test('error: a wallet whose answer only starts with the magic value is refused', async () => {
    // EchoWallet returns its calldata: 0x1626ba7e (the selector) followed by the hash — not the magic value.
    const echo = await deployTestContract(deployer, 'EchoWallet');
    expect(await verifyAs(echo, signedBy(newWallet()))).toMatchObject({
      status: 401,
      body: { error: 'Invalid signature' },
    });
  });
});

describe('ERC-6492: wallets not deployed yet', () => {
  test("default: an undeployed wallet signs in with a 6492 signature, keyed by the wallet's address", async () => {
    const owner = newWallet();
    const wallet = await counterfactualWallet(owner);
    const response = await verifyAs(wallet.address, wrapped6492(owner, wallet.deployData));
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ walletAddress: wallet.address.toLowerCase(), role: 'CLIENT' });
    // The check only simulated the deployment.
    expect(await chainReader().getCode({ address: wallet.address })).toBeUndefined();

    // Once deployed, the same wallet signs in with plain ERC-1271 as the same user.
    await deploy(wallet);
    const again = await verifyAs(wallet.address, signedBy(owner));
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(response.body.user.id);
  });

  test('behavior: a 6492 signature still counts after the wallet was deployed', async () => {
    const owner = newWallet();
    const wallet = await deployedWallet(owner);
    expect((await verifyAs(wallet.address, wrapped6492(owner, wallet.deployData))).status).toBe(200);
  });

  test('error: a 6492 signature by someone other than the owner is refused', async () => {
    const wallet = await counterfactualWallet(newWallet());
    const response = await verifyAs(wallet.address, wrapped6492(newWallet(), wallet.deployData));
    expect(response).toMatchObject({ status: 401, body: { error: 'Invalid signature' } });
  });

  test('error: a 6492 signature whose factory call deploys another wallet is refused', async () => {
    const owner = newWallet();
    const target = await counterfactualWallet(newWallet());
    const ownWallet = await counterfactualWallet(owner);
    // The factory call creates the owner's wallet, elsewhere; the claimed address stays empty.
    const response = await verifyAs(target.address, wrapped6492(owner, ownWallet.deployData));
    expect(response).toMatchObject({ status: 401, body: { error: 'Invalid signature' } });
  });
});

describe('the RPC during the contract-wallet check', () => {
  test(
    'error: unreachable while checking a deployed wallet is 503 with Retry-After, and the ' + 'nonce is gone',
    async () => {
      const owner = newWallet();
      const wallet = await deployedWallet(owner);
      const message = siweMessage(owner, await requestNonce(wallet.address), { address: wallet.address });
      const signature = await owner.signMessage({ message });
      setEnv({ RPC_URL: DEAD_RPC });
      try {
        const response = await call(verify, { body: { message, signature } });
        expect(response).toMatchObject({
          status: 503,
          body: { error: 'Service temporarily unavailable', details: ['chain unreachable'] },
        });
        expect(response.headers.get('retry-after')).toBe('5');
      } finally {
        setEnv({ RPC_URL: workerRpcUrl() });
      }
      // docs/api.md#sign-in: the nonce left the store before the check, whatever its outcome.
      expect(await call(verify, { body: { message, signature } })).toMatchObject({
        status: 401,
        body: { error: 'Nonce expired or unknown' },
      });
    },
  );

  test('error: unreachable while checking a 6492 signature is 503', async () => {
    const owner = newWallet();
    const wallet = await counterfactualWallet(owner);
    setEnv({ RPC_URL: DEAD_RPC });
    try {
      expect((await verifyAs(wallet.address, wrapped6492(owner, wallet.deployData))).status).toBe(503);
    } finally {
      setEnv({ RPC_URL: workerRpcUrl() });
    }
  });

  test('behavior: a plain wallet still signs in with the RPC unreachable — recovery needs no RPC', async () => {
    const wallet = newWallet();
    setEnv({ RPC_URL: DEAD_RPC });
    try {
      expect((await verifyAs(wallet.address, signedBy(wallet))).status).toBe(200);
    } finally {
      setEnv({ RPC_URL: workerRpcUrl() });
    }
  });

  // docs/api.md#sign-in: only an executed call that returns or reverts decides 401.
  test.each([
    ['a rate limit (JSON-RPC -32005)', { error: { code: -32005, message: 'rate limit exceeded' } }],
    ['an internal error (JSON-RPC -32603)', { error: { code: -32603, message: 'internal error' } }],
    ['a server error (JSON-RPC -32000, not a revert)', { error: { code: -32000, message: 'header not found' } }],
    ['HTTP 429', { httpStatus: 429 }],
  ] as [string, ProxyAnswer][])(
    'error: %s from the node during an ERC-1271 check is 503, not 401',
    async (_name, failure) => {
      const owner = newWallet();
      const wallet = await deployedWallet(owner);
      const message = siweMessage(owner, await requestNonce(wallet.address), { address: wallet.address });
      const signature = await owner.signMessage({ message });
      const proxy = await startRpcProxy(workerRpcUrl(), (method) => (method === 'eth_call' ? failure : undefined));
      setEnv({ RPC_URL: proxy.url });
      try {
        const response = await call(verify, { body: { message, signature } });
        expect(response).toMatchObject({ status: 503, body: { details: ['chain unreachable'] } });
        expect(response.headers.get('retry-after')).toBe('5');
      } finally {
        setEnv({ RPC_URL: workerRpcUrl() });
        await proxy.close();
      }
    },
  );

  test('behavior: through the same proxy, a wallet that reverts or says no is still 401', async () => {
    const owner = newWallet();
    const wallet = await deployedWallet(owner);
    const proxy = await startRpcProxy(workerRpcUrl(), () => undefined);
    setEnv({ RPC_URL: proxy.url });
    try {
      expect((await verifyAs(wallet.address, signedBy(newWallet()))).status).toBe(401);
      expect((await verifyAs(wallet.address, signedBy(owner))).status).toBe(200);
    } finally {
      setEnv({ RPC_URL: workerRpcUrl() });
      await proxy.close();
    }
  });
});
