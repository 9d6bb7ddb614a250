import { describe, expect, test } from 'vitest';
import type { Hex } from 'viem';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
import { GET as me } from '@/app/api/auth/me/route';
import { GET as sweepGet, POST as sweep } from '@/app/api/cron/sweep/route';
import { call } from '../support/http';
import { TEST_CHAIN_ID, setEnv, useTestEnvironment } from '../support/environment';
import { passportBalance, passportTokenOf, selfMint } from '../support/chain';
import { workerRpcUrl } from '../support/ports';
import { newWallet, signIn } from '../support/wallets';

const { contracts } = useTestEnvironment();
const passport = contracts.passport as Hex;
const cron = { authorization: `Bearer ${process.env.CRON_SECRET}` };

describe('POST /api/auth/register-agent', () => {
  test('default: becomes AGENT with a fresh token and a minted passport', async () => {
    const { token, wallet, user } = await signIn();
    const response = await call(registerAgent, { token, method: 'POST' });
    expect(response.status).toBe(200);
    expect(response.body.user).toEqual({ ...user, role: 'AGENT' });
    expect(response.body.token).not.toBe(token);
    const onChain = await passportTokenOf(passport, wallet.address);
    expect(onChain).toBeGreaterThan(0n);
    expect(response.body.passport).toEqual({
      tokenId: onChain.toString(),
      status: 'MINTED',
      contract: passport.toLowerCase(),
      chainId: TEST_CHAIN_ID,
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    const payload = JSON.parse(Buffer.from(response.body.token.split('.')[1], 'base64url').toString());
    expect(payload.role).toBe('AGENT');
    expect((await call(me, { token: response.body.token })).body.passport).toEqual(response.body.passport);
  });

  test('behavior: calling it again is idempotent and mints nothing more', async () => {
    const { token, wallet } = await signIn();
    const first = await call(registerAgent, { token, method: 'POST' });
    const second = await call(registerAgent, { token, method: 'POST' });
    expect(second.status).toBe(200);
    expect(second.body.passport).toEqual(first.body.passport);
    expect(await passportBalance(passport, wallet.address)).toBe(1n);
  });

  test('behavior: ten concurrent calls make one mint', async () => {
    const { token, wallet } = await signIn();
    const results = await Promise.all(Array.from({ length: 10 }, () => call(registerAgent, { token, method: 'POST' })));
    expect(results.every((r) => r.status === 200 && r.body.user.role === 'AGENT')).toBe(true);
    expect(await passportBalance(passport, wallet.address)).toBe(1n);
    const settled = await call(me, { token });
    expect(settled.body.passport).toMatchObject({
      status: 'MINTED',
      tokenId: (await passportTokenOf(passport, wallet.address)).toString(),
    });
  });

  test('behavior: a passport minted through the SDK is recovered, not minted again', async () => {
    const wallet = newWallet();
    const tokenId = await selfMint(passport, wallet);
    const { token } = await signIn(wallet);
    const response = await call(registerAgent, { token, method: 'POST' });
    expect(response.body.passport).toMatchObject({ status: 'MINTED', tokenId: tokenId.toString(), txHash: null });
    expect(await passportBalance(passport, wallet.address)).toBe(1n);
  });

  test(
    'behavior: with the RPC down the role still changes, the passport is PENDING, and the ' + 'sweep mints it once',
    async () => {
      const { token, wallet } = await signIn();
      setEnv({ RPC_URL: 'http://127.0.0.1:9' });
      const response = await call(registerAgent, { token, method: 'POST' });
      expect(response.status).toBe(200);
      expect(response.body.user.role).toBe('AGENT');
      expect(response.body.passport).toMatchObject({ status: 'PENDING', tokenId: null, txHash: null });
      // Still down: the sweep leaves it PENDING.
      expect((await call(sweep, { method: 'POST', headers: cron })).status).toBe(200);
      expect((await call(me, { token })).body.passport.status).toBe('PENDING');

      setEnv({ RPC_URL: workerRpcUrl() });
      const [a, b] = await Promise.all([
        call(sweep, { method: 'POST', headers: cron }),
        call(sweepGet, { headers: cron }),
      ]);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(a.body.passports.minted + b.body.passports.minted).toBeGreaterThanOrEqual(1);
      expect((await call(me, { token })).body.passport).toMatchObject({ status: 'MINTED' });
      expect(await passportBalance(passport, wallet.address)).toBe(1n);
      // Another sweep has nothing left to do for this passport.
      await call(sweep, { method: 'POST', headers: cron });
      expect(await passportBalance(passport, wallet.address)).toBe(1n);
    },
  );

  test('behavior: a mint not mined within MINT_WAIT_MS answers PENDING and the sweep records it', async () => {
    const { token, wallet } = await signIn();
    setEnv({ MINT_WAIT_MS: '0' });
    const response = await call(registerAgent, { token, method: 'POST' });
    setEnv({ MINT_WAIT_MS: undefined });
    expect(response.body.passport.status === 'PENDING' || response.body.passport.status === 'MINTED').toBe(true);
    await call(sweep, { method: 'POST', headers: cron });
    expect((await call(me, { token })).body.passport.status).toBe('MINTED');
    expect(await passportBalance(passport, wallet.address)).toBe(1n);
  });

  test('error: without a token it is 401', async () => {
    expect(await call(registerAgent, { method: 'POST' })).toMatchObject({
      status: 401,
      body: { error: 'Authentication required' },
    });
  });
});

describe('POST /api/cron/sweep', () => {
  test('error: a wrong or missing secret is 401', async () => {
    expect((await call(sweep, { method: 'POST' })).status).toBe(401);
    expect((await call(sweep, { method: 'POST', headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
  });
  test('behavior: without CRON_SECRET the operation does not exist', async () => {
    setEnv({ CRON_SECRET: undefined });
    expect((await call(sweep, { method: 'POST', headers: cron })).status).toBe(404);
    setEnv({ CRON_SECRET: cron.authorization.slice(7) });
  });
});
