// Every answer carries x-request-id (docs/api.md#observability): the dashboard's pages (proxy.ts)
// as well as the API (lib/http/observed.ts); a valid incoming id is kept, anything else replaced.
import { expect, test } from '@playwright/test';
import { e2e } from '../support/e2e/e2e-env';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test('pages and API answers carry x-request-id, keeping a valid incoming one', async ({ request }) => {
  const at = (path: string) => new URL(path, e2e.baseUrl).href;
  for (const path of ['/', '/missions', '/sign-in', '/api/health/live', '/.well-known/oauth-authorization-server']) {
    const fresh = await request.get(at(path));
    expect(fresh.status(), path).toBe(200);
    expect(fresh.headers()['x-request-id'], path).toMatch(UUID);
    const kept = await request.get(at(path), { headers: { 'x-request-id': 'trace.Abc_123-x' } });
    expect(kept.headers()['x-request-id'], path).toBe('trace.Abc_123-x');
    const replaced = await request.get(at(path), { headers: { 'x-request-id': 'no spaces allowed' } });
    expect(replaced.headers()['x-request-id'], path).toMatch(UUID);
  }
});
