// docs/api.md#operator-secrets: operator secrets cannot be guessed at speed — ten failures a minute per IP, then
// no comparison at all until the window ends; other IPs and the right secret elsewhere unaffected.
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
  test('error: the 11th failed admin token from one IP is 429, and then even the right token waits', async () => {
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await resolveAs({ authorization: `Bearer wrong-${i}` }, ip)).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    const locked = await resolveAs(ADMIN, ip);
    expect(locked).toMatchObject({ status: 429, body: { error: 'Too many failed operator attempts' } });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another IP still reaches the check: the right token is let through (an unknown mission is 404).
    expect((await resolveAs(ADMIN, randomIp())).status).toBe(404);
  });

  test('behavior: failures count across both operator secrets; successes do not count', async () => {
    const ip = randomIp();
    for (let i = 0; i < 5; i += 1) expect((await resolveAs(ADMIN, ip)).status).toBe(404);
    for (let i = 0; i < 10; i += 1) expect((await call(sweepRoute, { headers: { authorization: 'Bearer nope' }, ip })).status).toBe(401);
    expect((await resolveAs(ADMIN, ip)).status).toBe(429);
  });

  test('error: a missing, differently long or prefixed secret is 401, never 500', async () => {
    const ip = randomIp();
    const secret = ADMIN.authorization.slice('Bearer '.length);
    for (const authorization of [undefined, 'Bearer ', `Bearer ${secret}x`, `Bearer ${secret.slice(0, -1)}`, secret, `Basic ${secret}`]) {
      const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
      expect((await resolveAs(headers, ip)).status, authorization).toBe(401);
    }
  });
});
