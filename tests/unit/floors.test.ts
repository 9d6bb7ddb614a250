// The floors of lib/ (docs/architecture.md#floors): a module imports only from below, so no two
// folders of lib/ import each other and no import loop runs through several of them.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

/** `lib/missions/list.ts` → `lib/missions`; a file at lib/'s root is its own room. */
const roomOf = (path: string) => {
  const [, first, second] = path.split('/');
  return second === undefined ? `lib/${first!.replace(/\.tsx?$/, '')}` : `lib/${first}`;
};

function importsOf(): Map<string, Set<string>> {
  const rooms = new Map<string, Set<string>>();
  const files = readdirSync('lib', { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
  for (const file of files) {
    const path = join('lib', file);
    const from = roomOf(path);
    for (const [, spec] of readFileSync(path, 'utf8').matchAll(/(?:from|import)\s+'([^']+)'/g)) {
      const target = spec!.startsWith('@/') ? spec!.slice(2) : spec!.startsWith('.') ? relative('.', normalize(join(dirname(path), spec!))) : undefined;
      if (!target?.startsWith('lib/')) continue;
      const to = roomOf(target);
      if (to !== from) rooms.set(from, (rooms.get(from) ?? new Set()).add(to));
    }
  }
  return rooms;
}

describe('floors of lib/', () => {
  const rooms = importsOf();

  test('behavior: no two folders import each other', () => {
    const pairs = [...rooms].flatMap(([from, tos]) => [...tos].filter((to) => from < to && rooms.get(to)?.has(from)).map((to) => `${from} <-> ${to}`));
    expect(pairs).toEqual([]);
  });

  test('behavior: no import loop runs through several folders', () => {
    const loops: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (room: string, trail: string[]) => {
      if (state.get(room) === 'done') return;
      if (state.get(room) === 'open') return void loops.push([...trail.slice(trail.indexOf(room)), room].join(' -> '));
      state.set(room, 'open');
      for (const next of rooms.get(room) ?? []) visit(next, [...trail, room]);
      state.set(room, 'done');
    };
    for (const room of rooms.keys()) visit(room, []);
    expect(loops).toEqual([]);
  });
});
