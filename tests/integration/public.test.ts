// Public endpoints (docs/api.md#directory): marketplace totals counted by hand on a database of this file's
// own, their 30-second cache, and a runtime configuration that never carries a secret.
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { GET as configRoute } from '@/app/api/public/config/route';
import { GET as statsRoute } from '@/app/api/public/stats/route';
import { config } from '@/lib/config';
import { publicConfigSchema, publicStatsSchema } from '@/lib/public/schemas';
import { setEnv, useTestEnvironment, BOOKKEEPING } from '../support/environment';
import { call } from '../support/http';
import { isolatedDatabase } from '../support/isolated-database';
import { act, createMission, newAgent, newClient, ok } from '../support/missions';
import { daysAgo, setMissionTimes } from '../support/mission-clock';

const { contracts } = useTestEnvironment({ ...BOOKKEEPING, ...isolatedDatabase(), PLATFORM_FEE_BPS: '1000' });

const USDC = (n: number) => String(n * 1_000_000);

describe('GET /api/public/stats', () => {
  beforeAll(async () => {
    const client = await newClient();
    const [active, idle] = [await newAgent(), await newAgent()];
    await newAgent(); // registered, never worked
    await createMission(client); // OPEN
    await ok(act('cancel', client, (await createMission(client)).id));
    const done = (await createMission(client, { reward: USDC(40) })).id;
    await ok(act('accept', active, done));
    await ok(act('submit', active, done, { note: 'done' }));
    await ok(act('approve', client, done));
    // The idle agent's only work (an accept and a withdrawal) was 31 days ago.
    const old = (await createMission(client)).id;
    await ok(act('accept', idle, old));
    await ok(act('cancel', idle, old));
    await setMissionTimes(old, { eventsAt: daysAgo(31) });
  });
  afterEach(() => vi.useRealTimers());

  test('behavior: totals of missions, agents, payouts and agents active in 30 days', async () => {
    const response = await call(statsRoute);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=30');
    const stats = publicStatsSchema.parse(response.body);
    expect(stats).toMatchObject({
      missions: { total: 4, open: 2, completed: 1 }, // the withdrawn one is OPEN again
      agents: 3,
      totalPaid: USDC(36), // 40 less the 10% fee
      activeAgents30d: 1,
    });
  });

  test('behavior: figures are cached for 30 s, then recomputed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const before = publicStatsSchema.parse((await call(statsRoute)).body);
    await createMission(await newClient());
    vi.setSystemTime(Date.now() + 29_000);
    expect(publicStatsSchema.parse((await call(statsRoute)).body)).toEqual(before);
    vi.setSystemTime(Date.now() + 2_000);
    const after = publicStatsSchema.parse((await call(statsRoute)).body);
    expect(after.missions.total).toBe(before.missions.total + 1);
    expect(after.computedAt).not.toBe(before.computedAt);
  });
});

describe('GET /api/public/config', () => {
  test('behavior: chain, SIWE, contracts with the token read from the chain, limits, version', async () => {
    setEnv({ ESCROW_ADDRESS: contracts.escrow });
    const response = await call(configRoute);
    setEnv(BOOKKEEPING);
    expect(response.status).toBe(200);
    const body = publicConfigSchema.parse(response.body);
    expect(body).toMatchObject({
      chainId: 31337,
      siwe: {
        domain: 'app.example.com',
        domains: ['app.example.com', 'localhost:3000'],
        statement: 'Sign in to taskmarket with your wallet.',
      },
      contracts: {
        passport: contracts.passport.toLowerCase(),
        escrow: contracts.escrow.toLowerCase(),
        rewardToken: { address: contracts.rewardToken.toLowerCase(), symbol: 'USDC', decimals: 6 },
      },
      uploads: { maxFiles: 10, maxFileBytes: 10 * 1024 * 1024 },
      nonceTtlSeconds: 300,
      missions: { reviewWindowSeconds: 259_200, maxContests: 2, platformFeeBps: 1000 },
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    expect(body.uploads.allowedTypes).toContain('image/png');
    expect(body.uploads.allowedTypes).not.toContain('image/svg+xml');
  });

  test('behavior: no configured secret value appears anywhere in it', async () => {
    const text = JSON.stringify((await call(configRoute)).body);
    const cfg = config();
    const secrets = [
      cfg.jwtSecret,
      cfg.sessionSecret,
      cfg.cronSecret,
      cfg.adminToken,
      cfg.chain.registrarKey,
      cfg.chain.registrarKey?.slice(2),
    ];
    expect(secrets.filter(Boolean).length).toBe(6);
    for (const secret of secrets) expect(text).not.toContain(secret!);
    // Nor any connection string (a database or Redis URL may carry a password).
    for (const url of [cfg.databaseUrl, cfg.redisUrl]) if (url) expect(text).not.toContain(url);
  });
});
