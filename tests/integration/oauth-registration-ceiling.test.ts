// docs/api.md#oauth-21: registration is anonymous, so besides the per-IP limit a global ceiling bounds
// how many clients many IPs together can register in an hour — the table's growth has a bound.
import { count } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { POST as registerRoute } from '@/app/api/oauth/register/route';
import { getDb } from '@/lib/db/client';
import { oauthClients } from '@/lib/db/schema';
import { call, randomIp } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { REDIRECT_URI } from '../support/oauth';

useTestEnvironment({ ...BOOKKEEPING, OAUTH_REGISTRATIONS_PER_HOUR: '20', OAUTH_REGISTRATIONS_GLOBAL_PER_HOUR: '3' });

const clientCount = async () => (await (await getDb()).select({ n: count() }).from(oauthClients))[0]!.n;
const body = { client_name: 'sybil', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' };

test('behavior: past the global ceiling a fresh IP is refused too, and refused metadata never spent it', async () => {
  // A refused registration is not a registration: it leaves the global budget as it was.
  const junk = await call(registerRoute, { body: { ...body, redirect_uris: ['javascript:alert(1)'] }, ip: randomIp() });
  expect(junk).toMatchObject({ status: 400, body: { error: 'invalid_redirect_uri' } });
  for (let i = 0; i < 3; i += 1) expect((await call(registerRoute, { body, ip: randomIp() })).status).toBe(201);
  const before = await clientCount();
  const refused = await call(registerRoute, { body, ip: randomIp() });
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(await clientCount()).toBe(before);
});
