import { describe, expect, test } from 'vitest';
import { POST as verify } from '@/app/api/auth/verify/route';
import { call } from '../support/http';
import { TEST_CHAIN_ID, setEnv, useTestEnvironment } from '../support/environment';
import { newWallet, requestNonce, signIn, siweMessage } from '../support/wallets';

useTestEnvironment();

type Fields = Parameters<typeof siweMessage>[2];

/** A signed message over a fresh nonce issued to `wallet`. */
async function signed(fields: Fields = {}, wallet = newWallet(), signer = wallet) {
  const nonce = await requestNonce(wallet.address);
  const message = siweMessage(wallet, nonce, fields);
  return { wallet, nonce, message, signature: await signer.signMessage({ message }) };
}

describe('POST /api/auth/verify', () => {
  test('default: a valid signature creates a CLIENT user, returns a token and sets the session cookie', async () => {
    const { message, signature, wallet } = await signed();
    const response = await call(verify, { body: { message, signature } });
    expect(response.status).toBe(200);
    expect(response.body.user).toEqual({
      id: expect.any(String),
      walletAddress: wallet.address.toLowerCase(),
      role: 'CLIENT',
    });
    expect(response.body.token.split('.')).toHaveLength(3);
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^taskmarket_session=.+; Path=\/; HttpOnly; SameSite=Lax/);
  });

  test('behavior: signing in again keeps the same user', async () => {
    const first = await signIn();
    const second = await signIn(first.wallet);
    expect(second.user).toEqual(first.user);
  });

  test('behavior: a new wallet signing in from several tabs at once becomes one user', async () => {
    const wallet = newWallet();
    const attempts = await Promise.all(Array.from({ length: 8 }, () => signed({}, wallet)));
    const results = await Promise.all(
      attempts.map(({ message, signature }) => call(verify, { body: { message, signature } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(results.map((r) => r.body.user.id)).size).toBe(1);
    expect(results[0]!.body.user).toMatchObject({ walletAddress: wallet.address.toLowerCase(), role: 'CLIENT' });
  });

  test('error: a replayed message is refused — the nonce was consumed', async () => {
    const { message, signature } = await signed();
    expect((await call(verify, { body: { message, signature } })).status).toBe(200);
    const replay = await call(verify, { body: { message, signature } });
    expect(replay).toMatchObject({ status: 401, body: { error: 'Nonce expired or unknown' } });
  });

  test('behavior: 25 concurrent verifies of one message yield exactly one 200', async () => {
    const { message, signature } = await signed();
    const results = await Promise.all(Array.from({ length: 25 }, () => call(verify, { body: { message, signature } })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 401)).toHaveLength(24);
  });

  test('error: a failed attempt burns the nonce, so a correct retry with it fails too', async () => {
    const wallet = newWallet();
    const nonce = await requestNonce(wallet.address);
    const message = siweMessage(wallet, nonce);
    const bad = await call(verify, { body: { message, signature: await newWallet().signMessage({ message }) } });
    expect(bad).toMatchObject({ status: 401, body: { error: 'Invalid signature' } });
    const retry = await call(verify, { body: { message, signature: await wallet.signMessage({ message }) } });
    expect(retry).toMatchObject({ status: 401, body: { error: 'Nonce expired or unknown' } });
  });

  test('error: an unknown nonce', async () => {
    const wallet = newWallet();
    const message = siweMessage(wallet, 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6');
    const response = await call(verify, { body: { message, signature: await wallet.signMessage({ message }) } });
    expect(response).toMatchObject({ status: 401, body: { error: 'Nonce expired or unknown' } });
  });

  test('error: an expired nonce', async () => {
    setEnv({ NONCE_TTL_SECONDS: '1' });
    const { message, signature } = await signed();
    await new Promise((r) => setTimeout(r, 1100));
    setEnv({ NONCE_TTL_SECONDS: undefined });
    expect(await call(verify, { body: { message, signature } })).toMatchObject({
      status: 401,
      body: { error: 'Nonce expired or unknown' },
    });
  });

  test('error: a nonce issued to another address', async () => {
    const other = newWallet();
    const wallet = newWallet();
    const nonce = await requestNonce(other.address);
    const message = siweMessage(wallet, nonce);
    const response = await call(verify, { body: { message, signature: await wallet.signMessage({ message }) } });
    expect(response).toMatchObject({ status: 401, body: { error: 'Nonce was issued to another address' } });
  });

  test.each<[string, Fields, string]>([
    ['a chain id other than BASE_CHAIN_ID', { chainId: TEST_CHAIN_ID + 1 }, 'Chain ID mismatch'],
    ['a domain not allowed', { domain: 'evil.example.org' }, 'Domain not allowed'],
    ['a look-alike domain', { domain: 'evilapp.example.com' }, 'Domain not allowed'],
    ['an allowed domain as a prefix', { domain: 'app.example.com.evil.io' }, 'Domain not allowed'],
    ['a wrong port', { domain: 'localhost:3001' }, 'Domain not allowed'],
    ['an expired message', { expirationTime: new Date(Date.now() - 1000) }, 'Message expired'],
    ['a message not yet valid', { notBefore: new Date(Date.now() + 60_000) }, 'Message not yet valid'],
    [
      'issuedAt more than 5 minutes ahead',
      { issuedAt: new Date(Date.now() + 6 * 60_000) },
      'Message issued in the future',
    ],
  ])('error: %s is 401', async (_name, fields, error) => {
    const { message, signature } = await signed(fields);
    expect(await call(verify, { body: { message, signature } })).toMatchObject({ status: 401, body: { error } });
  });

  test.each<[string, Fields]>([
    ['a preview subdomain', { domain: 'pr-12.app.example.com' }],
    ['the second allowed entry', { domain: 'localhost:3000' }],
    ['issuedAt a little ahead (clock skew)', { issuedAt: new Date(Date.now() + 60_000) }],
    [
      'a future expiration and a past notBefore',
      { expirationTime: new Date(Date.now() + 60_000), notBefore: new Date(Date.now() - 60_000) },
    ],
  ])('behavior: %s is admitted', async (_name, fields) => {
    const { message, signature } = await signed(fields);
    expect((await call(verify, { body: { message, signature } })).status).toBe(200);
  });

  test('error: a signature by another key, and a signature over other text', async () => {
    const other = await signed({}, newWallet(), newWallet());
    expect(await call(verify, { body: { message: other.message, signature: other.signature } })).toMatchObject({
      status: 401,
      body: { error: 'Invalid signature' },
    });
    const wallet = newWallet();
    const nonce = await requestNonce(wallet.address);
    const message = siweMessage(wallet, nonce);
    const signature = await wallet.signMessage({ message: `${message} ` });
    expect(await call(verify, { body: { message, signature } })).toMatchObject({
      status: 401,
      body: { error: 'Invalid signature' },
    });
  });

  test('error: a garbage signature is 401, a non-hex one 400', async () => {
    const { message } = await signed();
    expect(await call(verify, { body: { message, signature: `0x${'ab'.repeat(65)}` } })).toMatchObject({ status: 401 });
    const nonHex = await call(verify, { body: { message, signature: 'not-hex' } });
    expect(nonHex.status).toBe(400);
    expect(nonHex.body.details).toEqual([expect.stringMatching(/^signature: /)]);
  });

  test('error: a malformed message is 400 and names the problem', async () => {
    const { message, signature } = await signed();
    const broken = message.replace('Version: 1', 'Version: 7');
    const response = await call(verify, { body: { message: broken, signature } });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Malformed SIWE message');
    expect(response.body.details?.[0]).toBeTypeOf('string');
  });

  test('error: missing fields and an oversized message are 400', async () => {
    const response = await call(verify, { body: { message: 'x' } });
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([expect.stringMatching(/^signature: /)]);
    const huge = await call(verify, { body: { message: 'x'.repeat(5000), signature: '0x00' } });
    expect(huge.status).toBe(400);
  });

  test('behavior: the 31st verify in a minute from one IP is 429', async () => {
    const ip = '10.99.99.99';
    const body = { message: 'x', signature: '0x00' };
    for (let i = 0; i < 30; i++) expect((await call(verify, { body, ip })).status).toBe(400);
    const limited = await call(verify, { body, ip });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });

  test(
    'behavior: valid sign-ins count in the same KV step as the nonce; past the limit the ' + 'nonce is not used up',
    async () => {
      const ip = '10.99.99.98';
      for (let i = 0; i < 30; i++) {
        const { message, signature } = await signed();
        const response = await call(verify, { body: { message, signature }, ip });
        expect(response.status).toBe(200);
        expect(response.headers.get('ratelimit-remaining')).toBe(String(29 - i));
      }
      const { message, signature } = await signed();
      const limited = await call(verify, { body: { message, signature }, ip });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('ratelimit-remaining')).toBe('0');
      // The limited attempt left its nonce in the store: the same message still signs in from elsewhere.
      expect((await call(verify, { body: { message, signature } })).status).toBe(200);
    },
  );
});
