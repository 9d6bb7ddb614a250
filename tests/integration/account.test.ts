// /api/account (docs/api.md#account): the caller's own profile — strict patches, https links, no way to set
// role, wallet or id — and the caller's counts as client and as agent.
import { describe, expect, test } from 'vitest';
import { GET as getProfile, PATCH as patchProfile } from '@/app/api/account/profile/route';
import { GET as statsRoute } from '@/app/api/account/stats/route';
import { accountStatsSchema, profileSchema } from '@/lib/account/schemas';
import { useTestEnvironment, BOOKKEEPING } from '../support/environment';
import { call } from '../support/http';
import { act, createMission, newAgent, newClient, ok } from '../support/missions';
import { signIn } from '../support/wallets';

useTestEnvironment(BOOKKEEPING);

const patch = (token: string, body: unknown) => call(patchProfile, { method: 'PATCH', token, body });
const USDC = (n: number) => String(n * 1_000_000);

describe('GET/PATCH /api/account/profile', () => {
  test('behavior: a new user has an empty profile with its wallet and role', async () => {
    const { token, user } = await signIn();
    const response = await call(getProfile, { token });
    expect(response.status).toBe(200);
    expect(profileSchema.parse(response.body)).toMatchObject({
      id: user.id,
      walletAddress: user.walletAddress,
      role: 'CLIENT',
      displayName: null,
      bio: null,
      organization: null,
      website: null,
      avatarUrl: null,
    });
  });

  test('behavior: patched fields are trimmed, kept, and others left alone', async () => {
    const { token } = await signIn();
    const first = await patch(token, {
      displayName: '  Ada  ',
      bio: 'Line one\nline two',
      website: 'https://ada.example.com/about',
    });
    expect(first.status).toBe(200);
    expect(profileSchema.parse(first.body)).toMatchObject({
      displayName: 'Ada',
      bio: 'Line one\nline two',
      website: 'https://ada.example.com/about',
    });
    const second = await patch(token, {
      organization: 'Analytical Engines Ltd',
      avatarUrl: 'https://cdn.example.com/ada.png',
    });
    expect(second.body).toMatchObject({
      displayName: 'Ada',
      organization: 'Analytical Engines Ltd',
      avatarUrl: 'https://cdn.example.com/ada.png',
    });
    expect((await call(getProfile, { token })).body).toEqual(second.body);
  });

  test('behavior: null or an empty string clears a field; {} changes nothing', async () => {
    const { token } = await signIn();
    await ok(patch(token, { displayName: 'Ada', website: 'https://ada.example.com' }));
    expect((await patch(token, { displayName: '', website: null })).body).toMatchObject({
      displayName: null,
      website: null,
    });
    await ok(patch(token, { bio: 'kept' }));
    expect((await patch(token, {})).body).toMatchObject({ bio: 'kept' });
  });

  test('error: role, walletAddress, id and unknown fields are 400 and change nothing', async () => {
    const { token, user } = await signIn();
    for (const body of [
      { role: 'AGENT' },
      { walletAddress: `0x${'1'.repeat(40)}` },
      { id: user.id },
      { displayName: 'x', nickname: 'y' },
    ]) {
      const response = await patch(token, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.details.join(' '), JSON.stringify(body)).toMatch(/role|walletAddress|id|nickname/);
    }
    expect((await call(getProfile, { token })).body).toMatchObject({
      role: 'CLIENT',
      walletAddress: user.walletAddress,
      displayName: null,
    });
  });

  test(
    'error: links must be https URLs; lengths and control characters are checked, every ' + 'problem listed',
    async () => {
      const { token } = await signIn();
      for (const website of [
        'http://ada.example.com',
        'javascript:alert(1)',
        'data:text/html,hi',
        'ada.example.com',
        `https://example.com/${'a'.repeat(2048)}`,
      ]) {
        expect((await patch(token, { website })).status, website).toBe(400);
      }
      const response = await patch(token, {
        displayName: 'x'.repeat(65),
        bio: 'y'.repeat(501),
        organization: 'o'.repeat(101),
        avatarUrl: 'ftp://x.example.com/a.png',
      });
      expect(response.status).toBe(400);
      expect(response.body.details).toHaveLength(4);
      expect((await patch(token, { displayName: 'Ada\u0000' })).status).toBe(400);
      // Found by the fuzz suite: PostgreSQL text holds no NUL, and jsonb no unpaired surrogate (both were 500s).
      for (const value of ['https://example.com/a\u0000b', 'https://example.com/a\udfffb']) {
        expect((await patch(token, { avatarUrl: value })).status, JSON.stringify(value)).toBe(400);
        expect((await patch(token, { website: value })).status, JSON.stringify(value)).toBe(400);
      }
      expect((await patch(token, { bio: 'half an emoji \ud83d' })).status).toBe(400);
      expect(
        (await patch(token, { displayName: 'x'.repeat(64), bio: 'y'.repeat(500), organization: 'o'.repeat(100) }))
          .status,
      ).toBe(200);
    },
  );

  test('error: no token is 401; a cookie PATCH from another origin is 403', async () => {
    expect((await call(getProfile)).status).toBe(401);
    const { cookie } = await signIn();
    const foreign = await call(patchProfile, {
      method: 'PATCH',
      cookie,
      body: { bio: 'x' },
      headers: { origin: 'https://evil.example.net' },
    });
    expect(foreign.status).toBe(403);
    const own = await call(patchProfile, {
      method: 'PATCH',
      cookie,
      body: { bio: 'x' },
      headers: { origin: 'https://app.example.com' },
    });
    expect(own.status).toBe(200);
  });
});

describe('GET /api/account/stats', () => {
  test('behavior: a client counts its missions by status, what is held and what was paid', async () => {
    const client = await newClient();
    const agent = await newAgent();
    await createMission(client, { reward: USDC(5) }); // OPEN: held
    const cancelled = (await createMission(client, { reward: USDC(3) })).id;
    await ok(act('cancel', client, cancelled));
    const done = (await createMission(client, { reward: USDC(10) })).id;
    await ok(act('accept', agent, done));
    await ok(act('submit', agent, done, { note: 'done' }));
    await ok(act('approve', client, done));
    const accepted = (await createMission(client, { reward: USDC(7) })).id;
    await ok(act('accept', agent, accepted)); // ACCEPTED: held

    const clientStats = accountStatsSchema.parse((await call(statsRoute, { token: client.token })).body);
    expect(clientStats.asClient).toEqual({
      posted: 4,
      byStatus: {
        OPEN: 1,
        ACCEPTED: 1,
        SUBMITTED: 0,
        CONTESTED: 0,
        DISPUTED: 0,
        COMPLETED: 1,
        CANCELLED: 1,
        JUDGING: 0,
        AWARDED: 0,
        AWAITING_FUNDING: 0,
      },
      escrowed: USDC(5 + 7),
      paid: USDC(10),
    });
    expect(clientStats.asAgent).toEqual({
      accepted: 0,
      completed: 0,
      earned: '0',
      active: 0,
      contested: 0,
      successRate: null,
    });

    const agentStats = accountStatsSchema.parse((await call(statsRoute, { token: agent.token })).body);
    expect(agentStats.asAgent).toEqual({
      accepted: 2,
      completed: 1,
      earned: USDC(10),
      active: 1,
      contested: 0,
      successRate: 0.5,
    });
    expect(agentStats.asClient.posted).toBe(0);
  });

  test('error: no token is 401', async () => {
    expect((await call(statsRoute)).status).toBe(401);
  });
});
