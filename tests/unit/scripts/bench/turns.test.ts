import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureInTurns } from '../../../../scripts/bench/measure';

// A server that counts each side's requests.
let server: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request.url!);
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// Each side's `select` runs just before its turn: the order of the turns.
const side = (name: string, turns: string[]) => ({
  base,
  scenario: { name, path: `/${name}` },
  select: async () => void turns.push(name),
});
const count = (path: string) => seen.filter((p) => p === path).length;

describe('measureInTurns (npm run bench)', () => {
  it('behavior: each side takes its turns alternately, A B B A, and its figures are over all its turns', async () => {
    seen.length = 0;
    const turns: string[] = [];
    const [a, b] = await measureInTurns([side('a', turns), side('b', turns)], 4, 2, 4);
    expect(turns).toEqual(['a', 'b', 'b', 'a', 'a', 'b', 'b', 'a']);
    // Answered requests; the server may also have seen one cut off at a turn's end.
    expect(a.total).toBeGreaterThan(0);
    expect(count('/a') - a.total).toBeGreaterThanOrEqual(0);
    expect(count('/a') - a.total).toBeLessThanOrEqual(8);
    expect(count('/b') - b.total).toBeGreaterThanOrEqual(0);
    expect(count('/b') - b.total).toBeLessThanOrEqual(8);
    // Four turns of a second each.
    expect(a.seconds).toBeGreaterThan(3.8);
    expect(a.seconds).toBeLessThan(4.8);
    expect(a.rps).toBeCloseTo(a.total / a.seconds, 6);
  });

  it('behavior: bFirst starts the round with the second side', async () => {
    const turns: string[] = [];
    await measureInTurns([side('a', turns), side('b', turns)], 2, 1, 2, true);
    expect(turns).toEqual(['b', 'a', 'a', 'b']);
  });
});
