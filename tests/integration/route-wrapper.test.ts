// The wrapper's guarantees for every route: failures of any kind leave in the documented shape.
import { describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { ROUTE_TABLE } from '@/app/api/documented-routes';
import { idSchema } from '@/lib/fields';
import { json, route } from '@/lib/http/route';
import { ApiError } from '@/lib/errors';
import { call } from '../support/http';
import { useTestEnvironment } from '../support/environment';

useTestEnvironment();

describe('route wrapper', () => {
  test(
    'error: an unexpected throw is 500 {"error":"Internal error"} with nothing else, ' + 'details only in the log',
    async () => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      const handler = route({}, async () => {
        throw new Error('relation "users" does not exist at SELECT secret_column');
      });
      const response = await call(handler, { path: '/api/x' });
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ error: 'Internal error' });
      expect(String(logged.mock.calls[0]?.[0])).toContain('secret_column');
      logged.mockRestore();
    },
  );

  test('behavior: ApiError keeps its status, message, details and headers', async () => {
    const handler = route({}, async () => {
      throw new ApiError(409, 'Conflict', ['a: b'], { 'X-Why': 'because' });
    });
    const response = await call(handler);
    expect(response).toMatchObject({ status: 409, body: { error: 'Conflict', details: ['a: b'] } });
    expect(response.headers.get('x-why')).toBe('because');
  });

  test('behavior: query and body validation list every problem by field', async () => {
    const handler = route(
      {
        query: z.object({ limit: z.coerce.number().int().max(100) }),
        body: z.strictObject({ a: z.string(), b: z.number() }),
      },
      async ({ body, query }) => json({ body, query }),
    );
    const bad = await call(handler, { path: '/x?limit=500', body: { b: 'x', c: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Validation failed');
    expect(bad.body.details).toEqual([expect.stringMatching(/^limit: /)]);
    const badBody = await call(handler, { path: '/x?limit=5', body: { b: 'x', c: 1 } });
    expect(badBody.body.details).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^a: /),
        expect.stringMatching(/^b: /),
        expect.stringMatching(/c/),
      ]),
    );
    expect(await call(handler, { path: '/x?limit=5', body: { a: 'x', b: 1 } })).toMatchObject({
      status: 200,
      body: { body: { a: 'x', b: 1 }, query: { limit: 5 } },
    });
  });

  test('behavior: path parameters are read by their schemas; one that fails is a 404 before the handler', async () => {
    let ran = 0;
    const handler = route({ params: { id: idSchema } }, async ({ params }) => {
      ran += 1;
      return json({ id: params.id });
    });
    const id = crypto.randomUUID();
    expect(await call(handler, { params: { id } })).toMatchObject({ status: 200, body: { id } });
    for (const malformed of ['not-a-uuid', "' OR 1=1 --", '']) {
      expect(await call(handler, { params: { id: malformed } })).toMatchObject({
        status: 404,
        body: { error: 'Not found' },
      });
    }
    expect(ran).toBe(1);
  });

  // docs/api.md#errors: a malformed id is a 404. The wrapper is the one place that says so, so every
  // route with a path segment must name its schema; the domain never sees an unchecked id.
  test('behavior: every route with a [segment] declares a schema for exactly its segments', () => {
    const undeclared = ROUTE_TABLE.flatMap(([template, module]) => {
      const segments = [...template.matchAll(/\[(?:\.\.\.)?(\w+)\]/g)].map(([, name]) => name!).sort();
      if (segments.length === 0 || template.includes('[...')) return [];
      return Object.entries(module)
        .filter(([, handler]) => handler?.options?.doc !== undefined)
        .filter(([, handler]) => {
          const declared = Object.keys(handler?.options?.params ?? {}).sort();
          return JSON.stringify(declared) !== JSON.stringify(segments);
        })
        .map(([method]) => `${method} ${template}`);
    });
    expect(undeclared).toEqual([]);
  });
});
