// What the backend's keys may spend, and what happens when a send keeps failing (docs/api.md#becoming-an-agent,
// docs/api.md#settlements): sponsored mints stop at the hourly budget and wait PENDING for the sweep; a settlement
// that fails SETTLEMENT_MAX_ATTEMPTS times waits FAILED, health says degraded, and the operator's
// retry pays it once.
import { eq } from 'drizzle-orm';
import { generatePrivateKey } from 'viem/accounts';
import type { Hex } from 'viem';
import { describe, expect, inject, test } from 'vitest';
import { POST as retryRoute } from '@/app/api/admin/settlements/[id]/retry/route';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { GET as healthRoute } from '@/app/api/health/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { ANVIL_KEYS } from '@/lib/chain/anvil-node';
import { getDb } from '@/lib/db/client';
import { passports, settlements } from '@/lib/db/schema';
import { selfMint } from '../support/chain';
import { call } from '../support/http';
import { setEnv, useTestEnvironment } from '../support/environment';
import { claimableOnChain, fundTask, taskOnChain } from '../support/escrow';
import { act, ADMIN, missionInput, ok } from '../support/missions';
import { newWallet, signIn } from '../support/wallets';

useTestEnvironment({ WRITE_RATE_LIMIT_PER_MINUTE: '100000', MINT_WAIT_MS: '3000', SETTLEMENT_MAX_ATTEMPTS: '3' });

const contracts = inject('contracts');
const sweep = () =>
  call(sweepRoute, { method: 'POST', headers: { authorization: `Bearer ${process.env.CRON_SECRET}` } });
const passportRow = async (userId: string) =>
  (await (await getDb()).select().from(passports).where(eq(passports.userId, userId)))[0]!;

describe('sponsored mints (docs/api.md#becoming-an-agent)', () => {
  test(
    'behavior: past MINT_BUDGET_PER_HOUR register-agent still answers 200 AGENT with the ' +
      'passport PENDING and no transaction; the sweep mints it when the budget allows',
    async () => {
      setEnv({ MINT_BUDGET_PER_HOUR: '1' });
      try {
        const first = await signIn();
        const second = await signIn();
        const minted = await call(registerAgent, { token: first.token, method: 'POST' });
        expect(minted).toMatchObject({
          status: 200,
          body: { user: { role: 'AGENT' }, passport: { status: 'MINTED' } },
        });
        const waiting = await call(registerAgent, { token: second.token, method: 'POST' });
        expect(waiting).toMatchObject({
          status: 200,
          body: { user: { role: 'AGENT' }, passport: { status: 'PENDING', tokenId: null, txHash: null } },
        });
        expect(await passportRow(second.user.id)).toMatchObject({ status: 'PENDING', txHash: null });

        // Still over budget: the sweep sends nothing either.
        await ok(sweep());
        expect(await passportRow(second.user.id)).toMatchObject({ status: 'PENDING', txHash: null });

        setEnv({ MINT_BUDGET_PER_HOUR: '100' });
        await ok(sweep());
        expect(await passportRow(second.user.id)).toMatchObject({ status: 'MINTED', tokenId: expect.anything() });
      } finally {
        setEnv({ MINT_BUDGET_PER_HOUR: undefined });
      }
    },
  );

  test('behavior: a zero budget still records a passport the agent minted itself', async () => {
    setEnv({ MINT_BUDGET_PER_HOUR: '0' });
    try {
      const agent = await signIn();
      await selfMint(contracts.passport as Hex, agent.wallet);
      const response = await call(registerAgent, { token: agent.token, method: 'POST' });
      expect(response).toMatchObject({ status: 200, body: { passport: { status: 'MINTED' } } });
    } finally {
      setEnv({ MINT_BUDGET_PER_HOUR: undefined });
    }
  });
});

describe('settlements that keep failing (docs/api.md#settlements)', () => {
  test(
    'behavior: a release failing SETTLEMENT_MAX_ATTEMPTS times is FAILED, health is ' +
      "degraded, and the operator's retry pays it once",
    async () => {
      const REWARD = 7_000_000n;
      const wallet = newWallet();
      const taskId = await fundTask(wallet, REWARD);
      const client = await signIn(wallet);
      const worker = await signIn();
      const agentToken = (await call(registerAgent, { token: worker.token, method: 'POST' })).body.token as string;
      const agent = { token: agentToken, id: worker.user.id, address: worker.user.walletAddress };
      const created = await call(createRoute, {
        token: client.token,
        body: missionInput({ reward: REWARD.toString(), onChainTaskId: taskId }),
      });
      const id = created.body.id as string;
      await ok(act('accept', agent, id));
      await ok(act('submit', agent, id, { note: 'Done.' }));

      // An operator key the escrow does not know: every release reverts in its gas estimate.
      setEnv({ OPERATOR_PRIVATE_KEY: generatePrivateKey() });
      try {
        await ok(act('approve', { token: client.token, id: client.user.id, address: client.user.walletAddress }, id));
        const row = async () =>
          (await (await getDb()).select().from(settlements).where(eq(settlements.missionId, id)))[0]!;
        expect(await row()).toMatchObject({ status: 'PENDING', attempts: 1 });
        await ok(sweep());
        await ok(sweep());
        const failed = await row();
        expect(failed).toMatchObject({
          status: 'FAILED',
          attempts: 3,
          lastError: expect.stringMatching(/^gave up after 3 attempts/),
        });
        // The sweep has stopped trying it.
        await ok(sweep());
        expect((await row()).attempts).toBe(3);

        const health = await call(healthRoute, { path: '/api/health' });
        expect(health.status).toBe(200);
        expect(health.body).toMatchObject({ status: 'degraded', settlements: { failed: expect.any(Number) } });
        expect(health.body.settlements.failed).toBeGreaterThanOrEqual(1);

        expect(
          (
            await call(retryRoute, {
              method: 'POST',
              params: { id: failed.id },
              headers: { authorization: 'Bearer wrong' },
            })
          ).status,
        ).toBe(401);
        setEnv({ OPERATOR_PRIVATE_KEY: ANVIL_KEYS[0] });
        const retried = await call(retryRoute, { method: 'POST', params: { id: failed.id }, headers: ADMIN });
        expect(retried).toMatchObject({
          status: 200,
          body: { id: failed.id, kind: 'RELEASE', status: 'MINED', txHash: expect.stringMatching(/^0x/) },
        });
        expect((await taskOnChain(taskId)).state).toBe(2);
        expect(await claimableOnChain(agent.address)).toBe(REWARD);

        // Nothing is paid twice: a second retry is refused, the sweep leaves the row alone.
        expect(await call(retryRoute, { method: 'POST', params: { id: failed.id }, headers: ADMIN })).toMatchObject({
          status: 409,
        });
        await ok(sweep());
        expect(await claimableOnChain(agent.address)).toBe(REWARD);
      } finally {
        setEnv({ OPERATOR_PRIVATE_KEY: undefined });
      }
    },
  );

  test('error: retrying an unknown or malformed settlement is 404', async () => {
    for (const id of ['3f1c7a4e-5b7d-4c2a-9f3e-8d6b5a4c3b2a', 'nope']) {
      expect((await call(retryRoute, { method: 'POST', params: { id }, headers: ADMIN })).status).toBe(404);
    }
  });
});
