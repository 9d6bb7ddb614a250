// Real wallets and real SIWE signatures for tests: a fresh viem account per user.
import { createSiweMessage } from 'viem/siwe';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { POST as noncePost } from '@/app/api/auth/nonce/route';
import { POST as verifyPost } from '@/app/api/auth/verify/route';
import { call } from './http';
import { TEST_CHAIN_ID, TEST_DOMAIN } from './environment';

export function newWallet(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}

type MessageFields = Partial<Parameters<typeof createSiweMessage>[0]>;

export function siweMessage(wallet: PrivateKeyAccount, nonce: string, fields: MessageFields = {}): string {
  return createSiweMessage({
    domain: TEST_DOMAIN,
    address: wallet.address,
    statement: 'Sign in to taskmarket with your wallet.',
    uri: `https://${TEST_DOMAIN}`,
    version: '1',
    chainId: TEST_CHAIN_ID,
    nonce,
    issuedAt: new Date(),
    ...fields,
  });
}

export async function requestNonce(address: string, ip?: string): Promise<string> {
  const response = await call(noncePost, { body: { address }, ip });
  if (response.status !== 200) throw new Error(`nonce: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.nonce as string;
}

/** Signs in through the real endpoints; answers the token, the user and the session cookie. */
export async function signIn(wallet: PrivateKeyAccount = newWallet(), ip?: string) {
  const nonce = await requestNonce(wallet.address, ip);
  const message = siweMessage(wallet, nonce);
  const signature = await wallet.signMessage({ message });
  const response = await call(verifyPost, { body: { message, signature }, ip });
  if (response.status !== 200) throw new Error(`verify: ${response.status} ${JSON.stringify(response.body)}`);
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  return { wallet, token: response.body.token as string, user: response.body.user, cookie };
}
