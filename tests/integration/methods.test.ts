// docs/api.md#conventions: every API route answers a method it does not support with 405 in the error shape
// and an `Allow` header naming what it does support — found by walking app/api, so a new route
// that forgets it fails here.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';

useTestEnvironment(BOOKKEEPING);

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const apiDir = join(process.cwd(), 'app', 'api');
const routeFiles = (readdirSync(apiDir, { recursive: true }) as string[])
  .filter((file) => file.endsWith('route.ts') && !file.startsWith('[...path]'))
  .map((file) => join(apiDir, file));

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

describe('unsupported methods', () => {
  test('default: the walk finds the API', () => {
    expect(routeFiles.length).toBeGreaterThan(25);
  });

  test.each(routeFiles.map((file) => [relative(apiDir, file), file]))(
    '%s exports every method, the missing ones as 405',
    async (_name, file) => {
      const module = (await import(file)) as Partial<Record<(typeof METHODS)[number], Handler>>;
      const refused: string[] = [];
      const served: string[] = [];
      for (const method of METHODS) {
        const handler = module[method];
        expect(handler, `${method} is not exported: Next.js would answer an empty 405`).toBeTypeOf('function');
        const response = await handler!(new Request('http://localhost:3000/api/x', { method }), {
          params: Promise.resolve({ id: 'x', fileId: 'x', address: 'x' }),
        });
        (response.status === 405 ? refused : served).push(method);
        if (response.status === 405) {
          expect(await response.json()).toEqual({ error: `Method ${method} not allowed` });
          expect(response.headers.get('content-type')).toBe('application/json');
        }
      }
      expect(served.length, 'a route serves at least one method').toBeGreaterThan(0);
      expect(refused.length).toBeGreaterThan(0);
      // The Allow header of each 405 lists exactly the methods that did not answer 405.
      const response = await module[refused[0] as (typeof METHODS)[number]]!(
        new Request('http://localhost:3000/api/x', { method: refused[0] }),
        {
          params: Promise.resolve({}),
        },
      );
      const allow = response.headers.get('allow')!.split(', ');
      expect(allow.filter((m) => !['HEAD', 'OPTIONS'].includes(m)).sort()).toEqual([...served].sort());
      expect(allow).toContain('OPTIONS');
    },
  );
});
