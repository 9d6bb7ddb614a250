// The Node half of the test wallet: a viem account on the e2e anvil answering the page's
// EIP-1193 requests — accounts, chain id, personal_sign, eth_signTypedData_v4, eth_sendTransaction (signed and sent
// here), wallet_switchEthereumChain — and passing every read through to the node. A test can
// put the wallet on another network or make it refuse the next request (EIP-1193 error 4001).
import type { BrowserContext } from '@playwright/test';
import { createPublicClient, createWalletClient, http, numberToHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { installInjectedProvider } from './injected-provider';

interface Request {
  method: string;
  params: unknown[];
}
interface Reply {
  result?: unknown;
  error?: { code: number; message: string };
  events?: [string, unknown][];
}

const BRIDGE = '__taskmarketTestWallet';
const USER_REJECTED = { code: 4001, message: 'User rejected the request.' };

export class TestWallet {
  readonly account;
  /** The chain the wallet says it is on; transactions always go to the e2e anvil. */
  chainId: number;
  /** Methods refused once, as a person pressing "Reject" would. */
  private readonly refuseOnce = new Set<string>();
  private authorized = false;
  private readonly publicClient;
  private readonly walletClient;

  constructor(privateKey: Hex, rpcUrl: string, chainId: number) {
    this.account = privateKeyToAccount(privateKey);
    this.chainId = chainId;
    const transport = http(rpcUrl);
    this.publicClient = createPublicClient({ chain: foundry, transport });
    this.walletClient = createWalletClient({ chain: foundry, transport, account: this.account });
  }

  get address(): string {
    return this.account.address;
  }

  /** How many EIP-712 signatures the person gave (eth_signTypedData_v4). */
  typedDataSigned = 0;

  refuseNext(method: 'personal_sign' | 'eth_sendTransaction' | 'eth_requestAccounts' | 'eth_signTypedData_v4'): void {
    this.refuseOnce.add(method);
  }

  /** Makes this wallet the browser wallet of every page in the context. */
  async attach(context: BrowserContext): Promise<void> {
    await context.exposeFunction(BRIDGE, (request: Request) => this.handle(request));
    await context.addInitScript(installInjectedProvider, {
      bridge: BRIDGE,
      name: 'Test Wallet',
      rdns: 'dev.taskmarket.test-wallet',
    });
  }

  private async handle({ method, params }: Request): Promise<Reply> {
    if (this.refuseOnce.delete(method)) return { error: USER_REJECTED };
    try {
      return await this.answer(method, params);
    } catch (error) {
      const e = error as { code?: number; shortMessage?: string; message?: string };
      return {
        error: {
          code: typeof e.code === 'number' ? e.code : -32603,
          message: e.shortMessage ?? e.message ?? String(error),
        },
      };
    }
  }

  private async answer(method: string, params: unknown[]): Promise<Reply> {
    switch (method) {
      case 'eth_requestAccounts':
        this.authorized = true;
        return { result: [this.account.address] };
      case 'eth_accounts':
        // Like a real wallet: no accounts for a site until the person has connected it once.
        return { result: this.authorized ? [this.account.address] : [] };
      case 'eth_chainId':
        return { result: numberToHex(this.chainId) };
      case 'net_version':
        return { result: String(this.chainId) };
      case 'wallet_requestPermissions':
      case 'wallet_getPermissions':
        return { result: [{ parentCapability: 'eth_accounts' }] };
      case 'wallet_revokePermissions':
        this.authorized = false;
        return { result: null };
      case 'wallet_switchEthereumChain': {
        const [{ chainId }] = params as [{ chainId: Hex }];
        this.chainId = Number(chainId);
        return { result: null, events: [['chainChanged', chainId]] };
      }
      case 'wallet_addEthereumChain':
        return { result: null };
      case 'personal_sign': {
        const [message] = params as [Hex, string];
        return { result: await this.account.signMessage({ message: { raw: message } }) };
      }
      case 'eth_signTypedData_v4': {
        // EIP-712 as wallets take it: [address, JSON of { domain, types (with EIP712Domain), primaryType, message }].
        const [, json] = params as [Hex, string];
        const { domain, types, primaryType, message } = JSON.parse(json) as {
          domain: never;
          types: Record<string, never>;
          primaryType: string;
          message: never;
        };
        const { EIP712Domain: _domain, ...rest } = types;
        this.typedDataSigned++;
        return { result: await this.account.signTypedData({ domain, types: rest, primaryType, message }) };
      }
      case 'eth_sendTransaction': {
        const [tx] = params as [{ to?: Hex; data?: Hex; value?: Hex; gas?: Hex }];
        const hash = await this.walletClient.sendTransaction({
          to: tx.to,
          data: tx.data,
          value: tx.value ? BigInt(tx.value) : undefined,
          gas: tx.gas ? BigInt(tx.gas) : undefined,
        });
        return { result: hash };
      }
      default:
        return { result: await this.publicClient.request({ method, params } as never) };
    }
  }
}
