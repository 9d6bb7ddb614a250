// Agents (docs/api.md#directory): the leaderboard's order, tie-breaks, periods and pages, success rates with
// withdrawals and a lost dispute, public profiles and the passport — on a database of this file's
// own, so every rank below is exact. Fee 10% and no contest rounds (a contest goes to DISPUTED).
import { getAddress } from 'viem';
import { beforeAll, describe, expect, test } from 'vitest';
import { GET as leaderboardRoute } from '@/app/api/agents/leaderboard/route';
import { GET as profileRoute } from '@/app/api/agents/[address]/route';
import { GET as passportRoute } from '@/app/api/agents/me/passport/route';
import { GET as publicLeaderboardRoute } from '@/app/api/public/leaderboard/route';
import { PATCH as patchProfile } from '@/app/api/account/profile/route';
import { agentProfileSchema, leaderboardSchema, publicLeaderboardSchema } from '@/lib/agents/schemas';
import { passportResponse } from '@/lib/auth/schemas';
import { useTestEnvironment, BOOKKEEPING } from '../support/environment';
import { call } from '../support/http';
import { isolatedDatabase } from '../support/isolated-database';
import { act, createMission, newAgent, newClient, ok, resolve, type Party } from '../support/missions';
import { daysAgo, setMissionTimes } from '../support/mission-clock';

useTestEnvironment({ ...BOOKKEEPING, ...isolatedDatabase(), PLATFORM_FEE_BPS: '1000', MAX_CONTESTS: '0' });

const USDC = (n: number) => String(n * 1_000_000);
let client: Party;
let a: Party, b: Party, c: Party, d: Party, e: Party;

async function complete(agent: Party, reward: number) {
  const { id } = await createMission(client, { reward: USDC(reward) });
  await ok(act('accept', agent, id));
  await ok(act('submit', agent, id, { note: 'done' }));
  await ok(act('approve', client, id));
  return id;
}

async function accept(agent: Party) {
  const { id } = await createMission(client, { reward: USDC(1) });
  await ok(act('accept', agent, id));
  return id;
}

const board = (query: string) => call(leaderboardRoute, { path: `/api/agents/leaderboard${query}` });
const byWallet = (...parties: Party[]) =>
  [...parties].sort((x, y) => (x.address < y.address ? -1 : 1)).map((p) => p.address);

beforeAll(async () => {
  client = await newClient();
  [a, b, c, d, e] = [await newAgent(), await newAgent(), await newAgent(), await newAgent(), await newAgent()];
  await ok(call(patchProfile, { method: 'PATCH', token: a.token, body: { displayName: 'Agent A' } }));
  // A: two completions, 30 + 10 USDC → 27 + 9 = 36 earned after the 10% fee; 2 of 2 accepted.
  await complete(a, 30);
  await complete(a, 10);
  // B: one completion of 40 (36 earned), and a delivery contested into a dispute the operator cancels.
  await complete(b, 40);
  const disputed = await accept(b);
  await ok(act('submit', b, disputed, { note: 'done' }));
  await ok(act('contest', client, disputed, { reason: 'Not what was asked.' }));
  await ok(resolve(disputed, { outcome: 'CANCELLED' }));
  // C: one completion of 40 (36 earned), one withdrawal, one mission still in hand.
  await complete(c, 40);
  const withdrawn = await accept(c);
  await ok(act('cancel', c, withdrawn));
  await accept(c);
  // D: 50 USDC (45 earned) completed ten days ago: in "all" and "30d", not in "7d".
  const old = await complete(d, 50);
  await setMissionTimes(old, { completedAt: daysAgo(10) });
  // E: accepted and withdrew: never completed, so never on the board.
  await ok(act('cancel', e, await accept(e)));
});

describe('GET /api/agents/leaderboard', () => {
  test('behavior: sort=earned ranks by earned, then completed, then wallet address ascending', async () => {
    const response = await board('?period=all&sort=earned');
    expect(response.status).toBe(200);
    const { items, nextCursor } = leaderboardSchema.parse(response.body);
    // D 45 > A 36 (2 completed) > B, C 36 (1 completed each, in wallet order).
    expect(items.map((i) => i.walletAddress)).toEqual([d.address, a.address, ...byWallet(b, c)]);
    expect(items.map((i) => i.rank)).toEqual([1, 2, 3, 4]);
    expect(items.map((i) => i.earned)).toEqual([USDC(45), USDC(36), USDC(36), USDC(36)]);
    expect(items.map((i) => i.completed)).toEqual([1, 2, 1, 1]);
    expect(nextCursor).toBeNull();
  });

  test('behavior: sort=completed ranks by completed, then earned, then wallet address', async () => {
    const { items } = leaderboardSchema.parse((await board('?sort=completed')).body);
    expect(items.map((i) => i.walletAddress)).toEqual([a.address, d.address, ...byWallet(b, c)]);
  });

  test('behavior: period=7d counts only completions of the last 7 days; 30d still has D', async () => {
    const week = leaderboardSchema.parse((await board('?period=7d')).body).items;
    expect(week.map((i) => i.walletAddress)).toEqual([a.address, ...byWallet(b, c)]);
    expect(week.map((i) => i.rank)).toEqual([1, 2, 3]);
    const month = leaderboardSchema.parse((await board('?period=30d')).body).items;
    expect(month[0]).toMatchObject({ walletAddress: d.address, earned: USDC(45), rank: 1 });
  });

  test(
    'behavior: success rate = completed ÷ missions ever accepted, withdrawals and lost ' + 'disputes included',
    async () => {
      const { items } = leaderboardSchema.parse((await board('')).body);
      const rate = Object.fromEntries(items.map((i) => [i.walletAddress, i.successRate]));
      expect(rate[a.address]).toBe(1); // 2 of 2
      expect(rate[b.address]).toBe(0.5); // 1 of 2: the disputed one was cancelled
      expect(rate[c.address]).toBe(0.3333); // 1 of 3: a withdrawal and one in hand
      expect(rate[d.address]).toBe(1);
    },
  );

  test('behavior: entries carry display name and passport token id, nothing internal', async () => {
    const passport = passportResponse.parse((await call(passportRoute, { token: a.token })).body);
    const { items } = leaderboardSchema.parse((await board('')).body);
    const entry = items.find((i) => i.walletAddress === a.address)!;
    expect(entry.displayName).toBe('Agent A');
    expect(entry.passportTokenId).toBe(passport.tokenId);
    expect(JSON.stringify(items)).not.toContain(a.id);
  });

  test('behavior: pages follow the same order with consecutive ranks; the last page has no cursor', async () => {
    const first = leaderboardSchema.parse((await board('?limit=3')).body);
    expect(first.items.map((i) => i.rank)).toEqual([1, 2, 3]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = leaderboardSchema.parse((await board(`?limit=3&cursor=${first.nextCursor}`)).body);
    expect(second.items.map((i) => i.rank)).toEqual([4]);
    expect(second.nextCursor).toBeNull();
    const all = leaderboardSchema.parse((await board('')).body).items;
    expect([...first.items, ...second.items]).toEqual(all);
  });

  test('error: a cursor from another sort, a tampered cursor and unknown periods are 400', async () => {
    const { nextCursor } = leaderboardSchema.parse((await board('?limit=1')).body);
    const other = await board(`?sort=completed&cursor=${nextCursor}`);
    expect(other).toMatchObject({ status: 400, body: { details: ['cursor: belongs to another period or sort'] } });
    expect((await board('?cursor=bm90LWpzb24')).status).toBe(400);
    // A count past PostgreSQL's integer is as tampered as any other: 400, not an out-of-range 500.
    const view = JSON.parse(Buffer.from(nextCursor!, 'base64url').toString()).v;
    const huge = Buffer.from(JSON.stringify({ v: view, e: '1', c: 3_000_000_000, w: `0x${'ab'.repeat(20)}` })).toString(
      'base64url',
    );
    expect(await board(`?cursor=${huge}`)).toMatchObject({
      status: 400,
      body: { error: 'Validation failed', details: ['cursor: malformed'] },
    });
    expect((await board('?period=1y')).status).toBe(400);
    expect((await board('?limit=101')).status).toBe(400);
  });
});

describe('GET /api/public/leaderboard', () => {
  test('behavior: the top of the board with public fields only', async () => {
    const response = await call(publicLeaderboardRoute, { path: '/api/public/leaderboard' });
    expect(response.status).toBe(200);
    const { items } = publicLeaderboardSchema.parse(response.body);
    expect(items).toEqual(leaderboardSchema.parse((await board('')).body).items);
    for (const party of [a, b, c, d]) expect(JSON.stringify(response.body)).not.toContain(party.id);
  });
});

describe('GET /api/agents/{address}', () => {
  const profile = (address: string) => call(profileRoute, { params: { address } });

  test('behavior: the public profile with figures counted by hand', async () => {
    const response = await profile(b.address);
    expect(response.status).toBe(200);
    const body = agentProfileSchema.parse(response.body);
    expect(body.stats).toEqual({
      accepted: 2,
      completed: 1,
      earned: USDC(36),
      active: 0,
      contested: 1,
      successRate: 0.5,
    });
    expect(body.passport).toMatchObject({ status: 'MINTED', tokenId: expect.any(String) });
    expect(body.walletAddress).toBe(b.address);
    expect(Date.parse(body.joinedAt)).not.toBeNaN();
    const cStats = agentProfileSchema.parse((await profile(c.address)).body).stats;
    expect(cStats).toEqual({
      accepted: 3,
      completed: 1,
      earned: USDC(36),
      active: 1,
      contested: 0,
      successRate: 0.3333,
    });
  });

  test('behavior: any case of the address finds the agent (checksummed or upper-case hex)', async () => {
    expect((await profile(getAddress(b.address))).status).toBe(200);
    expect((await profile(`0x${b.address.slice(2).toUpperCase()}`)).status).toBe(200);
  });

  test('error: a client, an unknown address and a malformed one are 404', async () => {
    expect((await profile(client.address)).status).toBe(404);
    expect((await profile(`0x${'1'.repeat(40)}`)).status).toBe(404);
    expect((await profile('not-an-address')).status).toBe(404);
    expect((await profile(`${b.address}00`)).status).toBe(404);
    // Mixed case with a broken EIP-55 checksum is malformed, not a lookup.
    // Flip one letter's case, choosing one that leaves the address mixed case: when the
    // checksum has a single lower-case letter, flipping it gives all upper case, which is valid.
    const checksummed = getAddress(b.address);
    const hex = checksummed.slice(2);
    const flips = [...hex].map((ch, i) => {
      const flipped = ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase();
      return `${hex.slice(0, i)}${flipped}${hex.slice(i + 1)}`;
    });
    const mixed = flips.find((h) => h !== hex && /[a-f]/.test(h) && /[A-F]/.test(h));
    const broken = mixed && `0x${mixed}`;
    expect(broken).toBeDefined();
    expect((await profile(broken!)).status).toBe(404);
  });
});

describe('GET /api/agents/me/passport', () => {
  test('behavior: an agent gets its passport; a client is 403; nobody is 401', async () => {
    const response = await call(passportRoute, { token: d.token });
    expect(response.status).toBe(200);
    expect(passportResponse.strict().parse(response.body)).toMatchObject({ status: 'MINTED', chainId: 31337 });
    expect((await call(passportRoute, { token: client.token })).status).toBe(403);
    expect((await call(passportRoute)).status).toBe(401);
  });
});
