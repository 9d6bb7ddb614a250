// A dependency that is down answers 503 whichever bundle opened its client (lib/errors.ts): the KV and
// database clients live on globalThis, and the one a route uses may have been opened by
// instrumentation.ts's bundle, whose copy of lib/errors is not the route's. Two module graphs here
// stand for the two bundles.
import { describe, expect, test, vi } from 'vitest';

async function freshErrors() {
  vi.resetModules();
  return import('@/lib/errors');
}

describe('DependencyDown across bundles', () => {
  test('behavior: an error thrown by another copy of lib/errors is still a DependencyDown, answered 503', async () => {
    const other = await freshErrors();
    const thrown = new other.DependencyDown('kv', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    const mine = await freshErrors();
    expect(mine.DependencyDown).not.toBe(other.DependencyDown);

    expect(thrown).toBeInstanceOf(mine.DependencyDown);
    expect(mine.unavailableDependency(thrown)).toBe('kv');
    const { errorResponse } = await import('@/lib/http/route');
    const response = errorResponse(thrown, new Request('http://localhost/api/auth/nonce', { method: 'POST' }));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({ error: 'Service temporarily unavailable', details: ['kv unreachable'] });
  });

  test('error: an ordinary error, or one that merely names itself DependencyDown, is not one', async () => {
    const { DependencyDown, unavailableDependency } = await freshErrors();
    const impostor = Object.assign(new Error('kv unavailable'), { name: 'DependencyDown', dependency: 'kv' });
    expect(impostor).not.toBeInstanceOf(DependencyDown);
    expect(new Error('boom')).not.toBeInstanceOf(DependencyDown);
    expect(null).not.toBeInstanceOf(DependencyDown);
    expect(unavailableDependency(new Error('boom'))).toBeUndefined();
  });
});
