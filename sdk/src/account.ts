// Who the client acts as: a viem LocalAccount (a private key, or any account that signs messages —
// an ERC-1271 smart wallet's signer included) or a WalletClient with an account. Only this module
// looks at which of the two it was given.
import {
  getAddress,
  type Account,
  type Address,
  type Chain,
  type LocalAccount,
  type Transport,
  type WalletClient,
} from 'viem';
import { TaskmarketError } from './errors.js';

export type TaskmarketAccount = LocalAccount | WalletClient<Transport, Chain | undefined, Account>;

export interface Signer {
  /** The checksummed address (EIP-4361 requires the EIP-55 form). */
  address: Address;
  signMessage(message: string): Promise<`0x${string}`>;
  /** The WalletClient, when that is what was given. */
  walletClient: WalletClient<Transport, Chain | undefined, Account> | undefined;
  /** The LocalAccount, when that is what was given. */
  localAccount: LocalAccount | undefined;
}

const isWalletClient = (value: TaskmarketAccount): value is WalletClient<Transport, Chain | undefined, Account> =>
  'transport' in value && typeof (value as { request?: unknown }).request === 'function';

export function signerOf(account: TaskmarketAccount): Signer {
  if (isWalletClient(account)) {
    const owner = account.account;
    if (!owner)
      throw new TaskmarketError({
        status: 0,
        error: 'The WalletClient has no account: pass one to createWalletClient({ account })',
      });
    return {
      address: getAddress(owner.address),
      signMessage: (message) => account.signMessage({ account: owner, message }),
      walletClient: account,
      localAccount: undefined,
    };
  }
  if (typeof account.signMessage !== 'function') {
    throw new TaskmarketError({
      status: 0,
      error: 'The account cannot sign messages: give a LocalAccount or a WalletClient',
    });
  }
  return {
    address: getAddress(account.address),
    signMessage: (message) => account.signMessage({ message }),
    walletClient: undefined,
    localAccount: account,
  };
}
