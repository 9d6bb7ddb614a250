// The SDK's pure parts, without a server: Retry-After, error bodies, the JWT's exp, answers, cursor pages,
// multipart forms, and that the library entry never loads a node: module at import time (browsers).
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tokenExpiry } from '../../../sdk/src/auth';
import { toFile, toFormData } from '../../../sdk/src/files';
import { errorOf, retryAfterSeconds, send, urlOf } from '../../../sdk/src/http';
import { ApiPromise } from '../../../sdk/src/answer';
import { PagedList } from '../../../sdk/src/pages';
import { TaskmarketError } from '../../../sdk/src/errors';

describe('retryAfterSeconds', () => {
  test('default: delta-seconds', () => expect(retryAfterSeconds('3')).toBe(3));
  test('behavior: an HTTP date is the seconds until it, rounded up', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(retryAfterSeconds('Tue, 24 Nov 2026 12:00:02 GMT', now)).toBe(2);
    expect(retryAfterSeconds('Tue, 24 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });
  test('error: absent or unreadable is undefined', () => {
    expect(retryAfterSeconds(null)).toBeUndefined();
    expect(retryAfterSeconds('soon')).toBeUndefined();
  });
});

describe('urlOf', () => {
  const config = (baseUrl: string) => ({ baseUrl, fetch, maxRetries: 0 });
  test('default: the path on the base URL, query values as text, absent ones left out', () => {
    expect(
      urlOf(config('http://api.test'), '/api/missions', { limit: 2, q: 'a b', cursor: undefined, mine: null }),
    ).toBe('http://api.test/api/missions?limit=2&q=a+b');
  });
  test('behavior: a base URL with a path keeps it', () => {
    expect(urlOf(config('https://example.com/taskmarket/'), '/api/health')).toBe(
      'https://example.com/taskmarket/api/health',
    );
    expect(urlOf(config('https://example.com/taskmarket'), '/api/health')).toBe(
      'https://example.com/taskmarket/api/health',
    );
  });
});

describe('send', () => {
  const answering = (...responses: Response[]) => {
    const calls: RequestInit[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      calls.push(init);
      return responses.shift()!;
    }) as unknown as typeof globalThis.fetch;
    return { fetch, calls };
  };

  test('behavior: a 503 is retried with the same Idempotency-Key, then the answer is returned', async () => {
    const { fetch, calls } = answering(
      new Response('{"error":"busy"}', { status: 503, headers: { 'retry-after': '0' } }),
      Response.json({ ok: true }),
    );
    const response = await send(
      { baseUrl: 'http://api.test', fetch, maxRetries: 3 },
      { method: 'POST', path: '/api/missions', body: { a: 1 }, idempotencyKey: 'key-1' },
    );
    expect(await response.json()).toEqual({ ok: true });
    expect(calls.map((c) => (c.headers as Record<string, string>)['idempotency-key'])).toEqual(['key-1', 'key-1']);
  });

  test('error: other statuses are not retried', async () => {
    const { fetch, calls } = answering(Response.json({ error: 'Conflict' }, { status: 409 }));
    await expect(
      send({ baseUrl: 'http://api.test', fetch, maxRetries: 3 }, { method: 'POST', path: '/x' }),
    ).rejects.toMatchObject({ status: 409, error: 'Conflict' });
    expect(calls).toHaveLength(1);
  });

  test('error: maxRetries 0 never retries', async () => {
    const { fetch, calls } = answering(
      Response.json({ error: 'Slow down' }, { status: 429, headers: { 'retry-after': '0' } }),
    );
    await expect(
      send({ baseUrl: 'http://api.test', fetch, maxRetries: 0 }, { method: 'GET', path: '/x' }),
    ).rejects.toMatchObject({ status: 429 });
    expect(calls).toHaveLength(1);
  });
});

describe('errorOf', () => {
  test('default: the API body becomes status, error and details', async () => {
    const error = await errorOf(
      Response.json({ error: 'Validation failed', details: ['title: Required'] }, { status: 400 }),
    );
    expect(error).toBeInstanceOf(TaskmarketError);
    expect(error).toMatchObject({
      status: 400,
      error: 'Validation failed',
      details: ['title: Required'],
      message: 'Validation failed: title: Required',
    });
  });
  test("behavior: a body that is not the API's (a proxy's page) keeps the status and its text", async () => {
    expect(await errorOf(new Response('Bad gateway', { status: 502 }))).toMatchObject({
      status: 502,
      error: 'Bad gateway',
      details: undefined,
    });
  });
});

describe('tokenExpiry', () => {
  const jwt = (payload: object) => `e30.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;
  test('default: exp in ms', () => expect(tokenExpiry(jwt({ exp: 1_800_000_000, sub: 'ü' }))).toBe(1_800_000_000_000));
  test('error: unreadable tokens have no expiry', () => {
    expect(tokenExpiry('opaque')).toBeUndefined();
    expect(tokenExpiry(jwt({ sub: 'x' }))).toBeUndefined();
  });
});

describe('PagedList', () => {
  const pages: Record<string, { items: number[]; nextCursor: string | null }> = {
    first: { items: [1, 2], nextCursor: 'b' },
    b: { items: [3, 4], nextCursor: 'c' },
    c: { items: [5], nextCursor: null },
  };
  const list = () => {
    const loads: (string | undefined)[] = [];
    const paged = new PagedList<number>((cursor) => {
      loads.push(cursor);
      return new ApiPromise(Promise.resolve(Response.json(pages[cursor ?? 'first'])));
    });
    return { paged, loads };
  };

  test('default: awaiting it answers the first page as the API does', async () => {
    const { paged, loads } = list();
    expect(loads).toEqual([]); // nothing fetched before it is awaited
    expect(await paged).toEqual(pages.first);
    expect(loads).toEqual([undefined]);
  });

  test('behavior: for await follows nextCursor to the end, reusing a first page already fetched', async () => {
    const { paged, loads } = list();
    await paged;
    const items: number[] = [];
    for await (const item of paged) items.push(item);
    expect(items).toEqual([1, 2, 3, 4, 5]);
    expect(loads).toEqual([undefined, 'b', 'c']);
  });

  test('behavior: text() is the first page as the API wrote it, fetched once with the awaited page', async () => {
    const { paged, loads } = list();
    expect(await paged.text()).toBe('{"items":[1,2],"nextCursor":"b"}');
    expect(await paged).toEqual(pages.first);
    expect(loads).toEqual([undefined]);
  });
});

describe('ApiPromise', () => {
  const JSON_HEADERS = { 'content-type': 'application/json' };
  const answer = (body: string, status = 200, headers: Record<string, string> = JSON_HEADERS) =>
    new ApiPromise<unknown>(Promise.resolve(new Response(body, { status, headers })));
  // Spaces and a key order JSON.stringify would not keep: the text must be the server's own.
  const written = '{ "b": 1, "a": [1.50, "\u00e9"] }';

  test('default: awaited, the JSON parsed; a Promise wherever one goes', async () => {
    const promise = answer(written);
    expect(promise).toBeInstanceOf(Promise);
    expect(await promise).toEqual({ b: 1, a: [1.5, 'é'] });
    expect(await Promise.all([answer('1'), answer('[2]')])).toEqual([1, [2]]);
  });

  test('behavior: text() is the body exactly as written, and the body is read once for both', async () => {
    let reads = 0;
    const response = new Response(written, { headers: JSON_HEADERS });
    const text = response.text.bind(response);
    response.text = () => (reads++, text());
    const promise = new ApiPromise<unknown>(Promise.resolve(response));
    expect(await promise.text()).toBe(written);
    expect(await promise).toEqual({ b: 1, a: [1.5, 'é'] });
    expect(await promise.text()).toBe(written);
    expect(reads).toBe(1);
  });

  test('behavior: nothing is parsed for text(): a body declared JSON comes back as it is', async () => {
    expect(await answer('not json').text()).toBe('not json');
    expect(await answer('{"a":1}', 200, { 'content-type': 'application/problem+json; charset=utf-8' }).text()).toBe(
      '{"a":1}',
    );
  });

  test("error: text() refuses a body not declared JSON (a proxy's HTML page), as awaiting it would", async () => {
    const html = answer('<html>sign in to the Wi-Fi</html>', 200, { 'content-type': 'text/html' });
    await expect(html.text()).rejects.toMatchObject({
      name: 'TaskmarketError',
      status: 200,
      error: 'The server answered something other than JSON',
    });
    await expect(answer('{"a":1}', 200, {}).text()).rejects.toMatchObject({ status: 200 });
  });

  test(
    'error: awaited, a body that is not JSON is a TaskmarketError with the status; catch ' + 'and finally see it',
    async () => {
      await expect(answer('<html>', 200)).rejects.toMatchObject({
        name: 'TaskmarketError',
        status: 200,
        error: 'The server answered something other than JSON',
      });
      let settled = false;
      const caught = await answer('<html>')
        .finally(() => (settled = true))
        .catch((error: TaskmarketError) => error.status);
      expect([caught, settled]).toEqual([200, true]);
    },
  );

  test(
    'error: a body that breaks off is a TaskmarketError saying it could not be read, for ' + 'text() and await',
    async () => {
      const broken = () => {
        const body = new ReadableStream({
          start: (controller) => {
            controller.enqueue(new TextEncoder().encode('{"items":['));
            controller.error(new Error('socket hang up'));
          },
        });
        return new ApiPromise<unknown>(Promise.resolve(new Response(body, { status: 200, headers: JSON_HEADERS })));
      };
      const expected = {
        name: 'TaskmarketError',
        status: 200,
        error: "The server's answer could not be read: socket hang up",
      };
      await expect(broken().text()).rejects.toMatchObject(expected);
      await expect(broken()).rejects.toMatchObject(expected);
    },
  );

  test('error: a failed request rejects both text() and the awaited value with its own error', async () => {
    const failure = new TaskmarketError({ status: 0, error: 'Could not reach' });
    const promise = new ApiPromise<unknown>(Promise.reject(failure));
    await expect(promise.text()).rejects.toBe(failure);
    await expect(promise).rejects.toBe(failure);
  });
});

describe('files', () => {
  test('default: fields as text, arrays comma-separated, empty ones left out, files under `files`', async () => {
    const form = await toFormData({ title: 'T', tags: ['a', 'b'], none: [], skip: undefined, onChainTaskId: 7 }, [
      new File(['x'], 'x.txt', { type: 'text/plain' }),
    ]);
    expect([...form.keys()]).toEqual(['title', 'tags', 'onChainTaskId', 'files']);
    expect(form.get('tags')).toBe('a,b');
    expect(form.get('onChainTaskId')).toBe('7');
    expect((form.get('files') as File).name).toBe('x.txt');
  });

  test(
    'behavior: a path is read from disk; text types are declared by extension, others left ' + 'to the server',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sdk-files-'));
      writeFileSync(join(dir, 'notes.md'), '# hi');
      writeFileSync(join(dir, 'blob.bin'), Buffer.from([1, 2, 3]));
      const md = await toFile(join(dir, 'notes.md'));
      expect([md.name, md.type, await md.text()]).toEqual(['notes.md', 'text/markdown', '# hi']);
      expect((await toFile(join(dir, 'blob.bin'))).type).toBe('application/octet-stream');
      expect((await toFile({ name: 'data.json', data: new TextEncoder().encode('{}') })).type).toBe('application/json');
    },
  );

  test('error: a missing path is a TaskmarketError with status 0', async () => {
    await expect(toFile('/nonexistent/file.txt')).rejects.toMatchObject({ name: 'TaskmarketError', status: 0 });
  });
});

describe('browser safety', () => {
  // The CLI, the stdio MCP server and the session they share run on Node only.
  test('default: no library module imports a node: module at the top level', () => {
    const root = new URL('../../../sdk/src/', import.meta.url).pathname;
    const library = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) return ['cli', 'mcp', 'session'].includes(name) ? [] : library(path);
        return name.endsWith('.ts') && !/^(cli|mcp)/.test(name) ? [path] : [];
      });
    const offenders = library(root).filter((path) =>
      /^\s*import[^(]*from\s+['"]node:/m.test(readFileSync(path, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
