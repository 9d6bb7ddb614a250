// The floors (docs/architecture.md#floors): a module imports only from below. No two folders of lib/
// or of sdk/src import each other and no loop runs through several of them; in app/, whose route
// files are wired by tables, no module imports one that imports it back, however long the way.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

type Graph = Map<string, Set<string>>;

const sources = (root: string) =>
  readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => join(root, f));

/** An import's file, repository-relative and without extension; undefined for a package. */
function targetOf(from: string, spec: string): string | undefined {
  if (spec.startsWith('@/')) return spec.slice(2).replace(/\.(js|tsx?)$/, '');
  if (spec.startsWith('.')) return relative('.', normalize(join(dirname(from), spec))).replace(/\.(js|tsx?)$/, '');
  return undefined;
}

/** Edges between the rooms `roomOf` names, for every import of every file under `root`. */
function graphOf(root: string, roomOf: (file: string) => string | undefined): Graph {
  const graph: Graph = new Map();
  for (const path of sources(root)) {
    const from = roomOf(path.replace(/\.tsx?$/, ''));
    for (const [, spec] of readFileSync(path, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
      const target = targetOf(path, spec!);
      const to = target === undefined ? undefined : roomOf(target);
      if (from && to && to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

function mutualPairs(graph: Graph): string[] {
  return [...graph].flatMap(([from, tos]) =>
    [...tos].filter((to) => from < to && graph.get(to)?.has(from)).map((to) => `${from} <-> ${to}`),
  );
}

function loops(graph: Graph): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (room: string, trail: string[]) => {
    if (state.get(room) === 'done') return;
    if (state.get(room) === 'open') return void found.push([...trail.slice(trail.indexOf(room)), room].join(' -> '));
    state.set(room, 'open');
    for (const next of graph.get(room) ?? []) visit(next, [...trail, room]);
    state.set(room, 'done');
  };
  for (const room of graph.keys()) visit(room, []);
  return found;
}

/** `lib/board/list` → `lib/board`; a file at the root is its own room. */
const folderOf = (root: string) => (file: string) => {
  if (!file.startsWith(`${root}/`)) return undefined;
  return `${root}/${file.slice(root.length + 1).split('/')[0]}`;
};

/** Each module of app/ is its own room; `app/x` names `app/x.ts(x)` or `app/x/index.ts`. */
const moduleOf = (file: string) => {
  if (!file.startsWith('app/')) return undefined;
  return existsSync(`${file}.ts`) || existsSync(`${file}.tsx`) ? file : `${file}/index`;
};

for (const root of ['lib', 'sdk/src']) {
  describe(`floors of ${root}/`, () => {
    const graph = graphOf(root, folderOf(root));

    test('behavior: no two folders import each other', () => {
      expect(mutualPairs(graph)).toEqual([]);
    });

    test('behavior: no import loop runs through several folders', () => {
      expect(loops(graph)).toEqual([]);
    });
  });
}

describe('modules of app/', () => {
  test('behavior: no import loop, however many modules it runs through', () => {
    expect(loops(graphOf('app', moduleOf))).toEqual([]);
  });
});

// lib/http is the edge (docs/architecture.md#floors): the route wrapper and what only HTTP needs.
// Below it, domains take plain values; above it, only the routes and the OpenAPI document made of them.
describe('the edge', () => {
  test('behavior: only app/ and lib/openapi import lib/http', () => {
    const importers = [...graphOf('lib', folderOf('lib'))]
      .filter(([from, tos]) => tos.has('lib/http') && from !== 'lib/openapi')
      .map(([from]) => from);
    expect(importers).toEqual([]);
  });
});
