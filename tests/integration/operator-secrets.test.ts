// docs/api.md#operator-secrets: wrong operator secrets are limited — ten a minute per kind and IP, then 429 —
// while the right secret always passes, and a flood of one kind leaves the others alone.
import { describe, expect, test } from 'vitest';
import { POST as resolveRoute } from '@/app/api/admin/missions/[id]/resolve/route';
import { GET as sweepRoute } from '@/app/api/cron/sweep/route';
import { call, randomIp } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { ADMIN } from '../support/missions';

useTestEnvironment(BOOKKEEPING);

const missionId = '3f1c7a4e-5b7d-4c2a-9f3e-8d6b5a4c3b2a';
const resolveAs = (headers: Record<string, string>, ip: string) =>
  call(resolveRoute, { method: 'POST', params: { id: missionId }, body: { outcome: 'CANCELLED' }, headers, ip });

describe('operator authentication', () => {
  test('error: the 11th wrong admin token from one IP is 429; the right one still passes there', async () => {
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) statuses.push((await resolveAs({ authorization: `Bearer wrong-${i}` }, ip)).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
    const limited = await resolveAs({ authorization: 'Bearer wrong-again' }, ip);
    expect(limited).toMatchObject({ status: 429, body: { error: 'Too many failed operator attempts' } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Past the limit the right token is compared and let through (an unknown mission is 404), again and again.
    for (let i = 0; i < 3; i += 1) expect((await resolveAs(ADMIN, ip)).status).toBe(404);
    expect((await resolveAs({ authorization: 'Bearer wrong-after' }, ip)).status).toBe(429);
  });

  test(
    'behavior: failures count per secret kind; a flood of wrong cron secrets leaves the ' +
      'admin token alone, and successes do not count',
    async () => {
      const ip = randomIp();
      for (let i = 0; i < 5; i += 1) expect((await resolveAs(ADMIN, ip)).status).toBe(404);
      const sweepAs = (authorization: string) => call(sweepRoute, { headers: { authorization }, ip });
      for (let i = 0; i < 10; i += 1) expect((await sweepAs('Bearer nope')).status).toBe(401);
      expect((await sweepAs('Bearer nope')).status).toBe(429);
      // The admin kind has its own count: wrong admin tokens are 401 up to their own ten, then 429.
      for (let i = 0; i < 10; i += 1) expect((await resolveAs({ authorization: 'Bearer nope' }, ip)).status).toBe(401);
      expect((await resolveAs({ authorization: 'Bearer nope' }, ip)).status).toBe(429);
      expect((await resolveAs(ADMIN, ip)).status).toBe(404);
      expect((await sweepAs(`Bearer ${process.env.CRON_SECRET}`)).status).toBe(200);
    },
  );

  test('error: a missing, differently long or prefixed secret is 401, never 500', async () => {
    const ip = randomIp();
    const secret = ADMIN.authorization.slice('Bearer '.length);
    for (const authorization of [
      undefined,
      'Bearer ',
      `Bearer ${secret}x`,
      `Bearer ${secret.slice(0, -1)}`,
      secret,
      `Basic ${secret}`,
    ]) {
      const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
      expect((await resolveAs(headers, ip)).status, authorization).toBe(401);
    }
  });
});
